import { Ban, Plus } from "lucide-react";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Page } from "../../../domain/paging";
import type { DiscountCard } from "../../../workers/services/discounts/cards";
import { DataTablePagination } from "~/components/data-table/pagination";
import { useFormat } from "~/components/format";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { toast } from "~/components/ui/toast";
import { ApiError, useApi } from "~/lib/api";
import { useIdempotencyKey } from "~/lib/idempotency";

const STATUS_VARIANT: Record<DiscountCard["status"], "default" | "secondary" | "outline" | "destructive"> = {
  INVALID: "outline",
  IN_USE: "default",
  EXPIRED: "secondary",
  CANCELLED: "destructive",
};

/**
 * A customer's discount cards on the customer's page (docs/rules/discounts.md "Cards"): give one
 * by activation code, list them page by page, void one with confirmation. The list pages itself
 * through the API, so giving or voiding does not reload the page.
 */
export function DiscountCardsSection({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const { money, energy, dateTime } = useFormat();
  const api = useApi();
  const confirm = useConfirm();
  const [page, setPage] = useState<Page<DiscountCard> | null>(null);
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Each give or void is sent once, whatever the network does (docs/rules/input.md "Idempotency keys").
  const { keyFor, succeeded } = useIdempotencyKey();

  const reload = useCallback(
    () => api.get("/customer-service/customer/{id}/discount-card", { params: { id: customerId }, query: paging }).then(setPage, () => undefined),
    [api, customerId, paging],
  );
  useEffect(() => {
    void reload();
  }, [reload]);

  const give = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.post("/customer-service/customer/{id}/discount-card", { params: { id: customerId }, body: { activationCode: code }, idempotencyKey: keyFor(`give ${code}`) });
      succeeded();
      toast.success(t("discounts.toasts.given"));
      setCode("");
      await reload();
    } catch (e) {
      if (e instanceof ApiError) setError(e.fields.activationCode ?? e.message);
    } finally {
      setBusy(false);
    }
  };

  const voidCard = async (card: DiscountCard) => {
    const ok = await confirm({
      title: t("discounts.dialogs.voidTitle"),
      message: t("discounts.dialogs.voidBody", { code: card.activationCode }),
      destructive: true,
      confirmLabel: t("discounts.actions.void"),
    });
    if (!ok) return;
    try {
      await api.put("/customer-service/customer/{id}/discount-card/{cardId}/void", { params: { id: customerId, cardId: card.id }, idempotencyKey: keyFor(`void ${card.id}`) });
      succeeded();
      toast.success(t("discounts.toasts.voided"));
      await reload();
    } catch {
      // The API client has shown the server's message.
    }
  };

  const remaining = (c: DiscountCard) => (c.unit === "MONEY" ? money(c.remaining) : energy(c.remaining));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("discounts.titles.customerCards")}</CardTitle>
        <CardDescription>{t("discounts.quotaHint")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form onSubmit={give} noValidate className="flex flex-wrap items-end gap-2">
          <div className="flex min-w-0 flex-1 flex-col gap-1.5">
            <Label htmlFor="discount-card-code">{t("discounts.fields.code")}</Label>
            <Input
              id="discount-card-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="off"
              className="font-mono uppercase"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "discount-card-code-error" : undefined}
            />
            {error && (
              <p id="discount-card-code-error" className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          <Button type="submit" disabled={busy || code.trim() === ""}>
            <Plus aria-hidden />
            {t("discounts.actions.give")}
          </Button>
        </form>
        {page && page.total === 0 ? (
          <p className="text-sm text-muted-foreground">{t("discounts.noCards")}</p>
        ) : (
          <div className="overflow-x-auto">
            <Table aria-label={t("discounts.titles.customerCards")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("discounts.fields.code")}</TableHead>
                  <TableHead>{t("discounts.fields.strategy")}</TableHead>
                  <TableHead>{t("discounts.fields.status")}</TableHead>
                  <TableHead>{t("discounts.fields.remaining")}</TableHead>
                  <TableHead>{t("discounts.fields.expiresAt")}</TableHead>
                  <TableHead>{t("common.actions")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {(page?.records ?? []).map((c) => (
                  <TableRow key={c.id}>
                    <TableCell className="font-mono">{c.activationCode}</TableCell>
                    <TableCell>
                      {c.strategyName} · {t(`discounts.type.${c.type}`)}
                    </TableCell>
                    <TableCell>
                      <Badge variant={STATUS_VARIANT[c.status]}>{t(`discounts.status.${c.status}`)}</Badge>
                    </TableCell>
                    <TableCell className="tabular-nums">{remaining(c)}</TableCell>
                    <TableCell>{c.expiresAt ? dateTime(c.expiresAt) : "—"}</TableCell>
                    <TableCell>
                      {c.status !== "CANCELLED" && (
                        <Button variant="ghost" size="sm" className="text-destructive" onClick={() => void voidCard(c)}>
                          <Ban aria-hidden />
                          {t("discounts.actions.void")}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        {page && page.total > page.size && <DataTablePagination total={page.total} current={page.current} size={page.size} onPageChange={(current, size) => setPaging({ current, size })} />}
      </CardContent>
    </Card>
  );
}
