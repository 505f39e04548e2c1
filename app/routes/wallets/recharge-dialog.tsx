import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useState } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import { amountInput } from "../../../domain/schemas/stations";
import { RECHARGE_KINDS, rechargeForm, toRechargeInput, type RechargeFormValues } from "../../../domain/schemas/wallets";
import { AmountField, SelectField, TextareaField } from "~/components/form/fields";
import { FormField } from "~/components/form/form-field";
import { Button } from "~/components/ui/button";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/components/ui/toast";
import { CustomerSelect } from "../drivers/pickers";
import type { Recharge } from "../../../workers/services/wallets/recharges";
import { FormDialogFooter } from "~/components/form/dialog-footer";
import { useIdempotentSubmit } from "~/lib/idempotency";

/**
 * Top up or deduct (docs/rules/wallets.md "Recharges"): a customer, the operation and the amount
 * in the currency's display units, or one of the operator's top-up amounts; confirmed with the customer's name and the amount before it
 * is sent. The server answers the new balance, or why it refused (minimum, balance).
 */
export function RechargeDialog({ open, onClose, minimumRecharge, presets }: { open: boolean; onClose: () => void; minimumRecharge: number; presets: readonly number[] }) {
  const { t } = useTranslation();
  const { currency, money } = useFormat();
  const confirm = useConfirm();
  const fetcher = useFetcher<{ ok: true; recharge: Recharge } | { ok: false; message: string; fields: Record<string, string> }>();
  const submitOnce = useIdempotentSubmit(fetcher);
  const customerField = useId();
  const form = useForm<RechargeFormValues>({ resolver: zodResolver(rechargeForm(currency.decimals)) as Resolver<RechargeFormValues> });
  useEffect(() => {
    if (open) form.reset({ customerId: null, kind: "TOP_UP", amount: "", remark: "" });
  }, [open, form]);
  useActionOutcome<{ recharge: Recharge }>(
    fetcher,
    ({ recharge }) => {
      toast.success(t("wallets.recharge.done", { name: recharge.customerName ?? "", balance: money(recharge.balanceAfter) }));
      onClose();
    },
    (name, message) => form.setError(name as keyof RechargeFormValues, { message }),
  );
  // The chosen customer as the picker shows it ("name · e-mail"), for the confirmation.
  const [customerLabel, setCustomerLabel] = useState("");
  const submit = form.handleSubmit(async (values) => {
    const input = toRechargeInput(values as never, currency.decimals);
    const name = customerLabel;
    const deduct = input.amount < 0;
    const ok = await confirm({
      message: t(deduct ? "wallets.recharge.confirmDeduct" : "wallets.recharge.confirmTopUp", { amount: money(Math.abs(input.amount)), name }),
      destructive: deduct,
      confirmLabel: t(deduct ? "wallets.recharge.deduct" : "wallets.recharge.topUp"),
    });
    if (ok) submitOnce(input, { method: "post", encType: "application/json" });
  });
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{t("wallets.recharge.open")}</DialogTitle>
            <DialogDescription>{t("wallets.validation.minimumRecharge", { minimum: money(minimumRecharge) })}</DialogDescription>
          </DialogHeader>
          <Controller
            control={form.control}
            name="customerId"
            render={({ field, fieldState }) => (
              <FormField id={customerField} label={t("wallets.recharge.customer")} required error={fieldState.error?.message ? t(fieldState.error.message) : undefined}>
                <CustomerSelect
                  id={customerField}
                  value={field.value ?? null}
                  onChange={(id) => {
                    field.onChange(id);
                    setCustomerLabel((document.getElementById(customerField) as HTMLSelectElement | null)?.selectedOptions[0]?.text ?? "");
                  }}
                  invalid={fieldState.invalid}
                />
              </FormField>
            )}
          />
          <SelectField
            control={form.control}
            name="kind"
            label={t("wallets.recharge.kind")}
            required
            options={RECHARGE_KINDS.map((k) => ({ value: k, label: t(k === "TOP_UP" ? "wallets.recharge.topUp" : "wallets.recharge.deduct") }))}
          />
          <AmountField control={form.control} name="amount" label={t("wallets.recharge.amount")} required />
          {presets.length > 0 && (
            // The operator's top-up amounts, one click each (docs/rules/wallets.md "Recharges").
            <div role="group" aria-label={t("wallets.recharge.presets")} className="-mt-2 flex flex-wrap gap-2">
              {presets.map((preset) => (
                <Button
                  key={preset}
                  type="button"
                  variant="outline"
                  size="sm"
                  aria-pressed={form.watch("kind") === "TOP_UP" && form.watch("amount") === amountInput(preset, currency.decimals)}
                  onClick={() => {
                    form.setValue("kind", "TOP_UP", { shouldValidate: true });
                    form.setValue("amount", amountInput(preset, currency.decimals), { shouldValidate: true });
                  }}
                >
                  {money(preset)}
                </Button>
              ))}
            </div>
          )}
          <TextareaField control={form.control} name="remark" label={t("wallets.recharge.remark")} rows={2} />
          <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} submitLabel={t("wallets.recharge.open")} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
