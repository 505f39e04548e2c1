import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";

/**
 * Assigns a strategy to points (docs/rules/pricing.md "Assigning points"): the checked points charge
 * by it, moving from any other strategy; points left unchecked are released. The list pages on the
 * server, 100 at a time; the points already on the strategy start checked.
 */
interface StrategyPoint {
  id: number;
  serialNumber: string;
  name: string;
  stationName: string | null;
  chargeStrategyId: number | null;
  chargeStrategyName: string | null;
}
type Page = { records: StrategyPoint[]; total: number };

const SIZE = 100;

export function AssignDialog({ strategy, onClose, onSaved }: { strategy: { id: number; name: string }; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [serial, setSerial] = useState("");
  const [current, setCurrent] = useState(1);
  const [page, setPage] = useState<Page>();
  const [selected, setSelected] = useState<Set<number>>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    // The points on this strategy now, every page of them, start checked.
    void (async () => {
      const ids = new Set<number>();
      for (let at = 1; ; at++) {
        const chunk = await api.get("/finance-service/strategy/points", { query: { strategyId: strategy.id, size: SIZE, current: at } });
        chunk.records.forEach((p) => ids.add(p.id));
        if (ids.size >= chunk.total || chunk.records.length === 0) break;
      }
      setSelected(ids);
    })().catch(onClose);
  }, [api, strategy.id, onClose]);

  useEffect(() => {
    api.get("/finance-service/strategy/points", { query: { size: SIZE, current, serialNumber: serial || undefined } }).then(setPage, () => undefined);
  }, [api, serial, current]);

  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };

  const save = async () => {
    if (!selected) return;
    setSaving(true);
    try {
      await api.put("/finance-service/strategy/{id}/assign", { params: { id: strategy.id }, body: { pointIds: [...selected] } });
      toast.success(t("pricing.assign.saved", { count: selected.size, name: strategy.name }));
      onSaved();
    } catch {
      setSaving(false);
    }
  };

  const pages = page ? Math.max(1, Math.ceil(page.total / SIZE)) : 1;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t("pricing.assign.title", { name: strategy.name })}</DialogTitle>
          <DialogDescription>{t("pricing.assign.hint")}</DialogDescription>
        </DialogHeader>
        <Input
          value={serial}
          placeholder={t("pricing.assign.search")}
          aria-label={t("pricing.assign.search")}
          onChange={(e) => {
            setSerial(e.target.value);
            setCurrent(1);
          }}
        />
        <ul className="flex flex-col divide-y rounded-md border" data-testid="assign-points">
          {page?.records.map((p) => (
            <li key={p.id} className="flex items-center gap-3 px-3 py-2 text-sm">
              <Checkbox
                id={`assign-${p.id}`}
                checked={selected?.has(p.id) ?? false}
                disabled={!selected}
                onCheckedChange={(checked) => toggle(p.id, checked === true)}
              />
              <label htmlFor={`assign-${p.id}`} className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-3">
                <span className="font-mono text-xs font-medium">{p.serialNumber}</span>
                <span className="truncate">{p.name}</span>
                <span className="text-muted-foreground">{p.stationName ?? ""}</span>
              </label>
              <span className="text-xs text-muted-foreground">
                {p.chargeStrategyId === strategy.id ? "" : (p.chargeStrategyName ?? t("pricing.assign.none"))}
              </span>
            </li>
          ))}
          {page && page.records.length === 0 && <li className="px-3 py-6 text-center text-sm text-muted-foreground">{t("pricing.assign.empty")}</li>}
        </ul>
        {pages > 1 && (
          <div className="flex items-center justify-end gap-2 text-sm">
            <Button type="button" variant="outline" size="sm" disabled={current <= 1} onClick={() => setCurrent(current - 1)}>
              {t("ui.table.previous")}
            </Button>
            <span className="tabular-nums">{`${current} / ${pages}`}</span>
            <Button type="button" variant="outline" size="sm" disabled={current >= pages} onClick={() => setCurrent(current + 1)}>
              {t("ui.table.next")}
            </Button>
          </div>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="button" disabled={!selected || saving} onClick={() => void save()}>
            {t("pricing.assign.save", { count: selected?.size ?? 0 })}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
