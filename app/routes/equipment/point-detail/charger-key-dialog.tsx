import { Copy, KeyRound, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";

/**
 * Generate or rotate the charger key (ARCHITECTURE.md §5): the new key is shown once, with a
 * copy button; only its keyed hash is kept. Optionally it is pushed first to a connected
 * charger (ChangeConfiguration AuthorizationKey); when the charger refuses, nothing changes.
 */
export function ChargerKeyDialog({ pointId, hasKey, online }: { pointId: number; hasKey: boolean; online: boolean }) {
  const { t } = useTranslation();
  const api = useApi();
  const revalidator = useRevalidator();
  const pushId = useId();
  const [open, setOpen] = useState(false);
  const [push, setPush] = useState(false);
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<{ key: string; pushed: boolean }>();

  const generate = async () => {
    setBusy(true);
    try {
      const result = await api<{ key: string; pushed: boolean }>("POST", `/station-service/point/${pointId}/key`, { push: push && online });
      setIssued(result);
      void revalidator.revalidate();
    } catch {
      // The API client has shown why (a refusal leaves the old key working).
    } finally {
      setBusy(false);
    }
  };

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setIssued(undefined);
      setPush(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <KeyRound aria-hidden />
        {t(hasKey ? "points.key.rotate" : "points.key.generate")}
      </Button>
      <DialogContent>
        {issued ? (
          <>
            <DialogHeader>
              <DialogTitle>{t("points.key.issuedTitle")}</DialogTitle>
              <DialogDescription>{t(issued.pushed ? "points.key.issuedPushed" : "points.key.issuedText")}</DialogDescription>
            </DialogHeader>
            <div className="flex items-center justify-between gap-3 rounded-md border bg-muted px-4 py-3">
              <code data-testid="charger-key" className="font-mono text-sm break-all">
                {issued.key}
              </code>
              <Button
                variant="outline"
                size="sm"
                onClick={async () => {
                  await navigator.clipboard?.writeText(issued.key);
                  toast.success(t("points.key.copied"));
                }}
              >
                <Copy aria-hidden />
                {t("points.key.copy")}
              </Button>
            </div>
            <p className="flex items-start gap-2 text-xs text-muted-foreground">
              <TriangleAlert className="mt-0.5 size-3.5 shrink-0 text-warning" aria-hidden />
              {t("points.key.once")}
            </p>
            <DialogFooter>
              <Button onClick={() => close(false)}>{t("points.key.done")}</Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>{t(hasKey ? "points.key.rotateTitle" : "points.key.generateTitle")}</DialogTitle>
              <DialogDescription>{t(hasKey ? "points.key.rotateText" : "points.key.generateText")}</DialogDescription>
            </DialogHeader>
            <div className="flex items-start gap-3 rounded-md border p-3">
              <Checkbox id={pushId} checked={push} onCheckedChange={(value) => setPush(value === true)} disabled={!online} className="mt-0.5" />
              <div className="grid gap-1">
                <Label htmlFor={pushId}>{t("points.key.push")}</Label>
                <p className="text-xs text-muted-foreground">{t(online ? "points.key.pushHint" : "points.key.pushOffline")}</p>
              </div>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                {t("common.cancel")}
              </Button>
              <Button onClick={() => void generate()} disabled={busy}>
                <KeyRound aria-hidden />
                {t(hasKey ? "points.key.rotate" : "points.key.generate")}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
