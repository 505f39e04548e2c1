import type { ColumnDef } from "@tanstack/react-table";
import { Plus, RotateCcw } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { amountInput } from "../../../domain/schemas/stations";
import { CHANNEL_TYPES, ENVIRONMENTS, PAYPAL, REQUIRED_CREDENTIALS, STRIPE, SUPPORTED_CHANNEL_TYPES, type CredentialField } from "../../../domain/schemas/payments";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { useIdempotentSubmit } from "~/lib/idempotency";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { loadPaymentChannels, paymentChannelAction } from "./payment-channels.server";
import { FormDialogFooter } from "~/components/form/dialog-footer";

/**
 * Payment channels (docs/rules/payments.md "Channels"): one per type; the type is chosen first;
 * an enabled channel is locked; credentials are write-only and shown masked. Below, the failed
 * card payments, each retried after a confirmation (docs/rules/payments.md "Retries").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPaymentChannels(args);
}

export function action(args: ActionFunctionArgs) {
  return paymentChannelAction(args);
}

type Data = Awaited<ReturnType<typeof loader>>;
type Channel = Data["channels"][number];
type Failed = NonNullable<Data["failed"]>["records"][number];

/** What the form asks for a type: the credentials it needs, and Stripe's publishable key. */
/** A type's credentials: the ones it needs, then Stripe's publishable key or PayPal's webhook id (docs/rules/payments.md "PayPal"). */
const credentialsOf = (type: number): CredentialField[] => [
  ...REQUIRED_CREDENTIALS[CHANNEL_TYPES[type]],
  ...(type === STRIPE ? (["clientApiKey"] as const) : type === PAYPAL ? (["webhookId"] as const) : []),
];
/** PayPal's credentials are labelled as PayPal's developer dashboard names them. */
const credentialLabel = (type: number, f: CredentialField) => (type === PAYPAL ? `paypal.credentials.${f}` : `payments.credentials.${f}`);
/** The types configured for later, which answer "not supported yet" when used. */
const UNSUPPORTED = CHANNEL_TYPES.filter((_, i) => !SUPPORTED_CHANNEL_TYPES.includes(i)).join(", ");

export default function PaymentChannelsScreen() {
  const { channels, failed, currency, webhookUrl, paypalWebhookUrl } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, dateTime } = useFormat();
  const { edit, remove, toggle } = useCommonRowActions();
  const { onPageChange } = useUrlPaging();
  const fetcher = useFetcher<typeof action>();
  const submitOnce = useIdempotentSubmit(fetcher);
  const [editing, setEditing] = useState<Channel | "new" | null>(null);
  useActionOutcome<{ intent: string }>(fetcher, (data) => {
    toast.success(t(data.intent === "delete" ? "payments.channels.deleted" : data.intent === "retry" ? "payments.card.retried" : "payments.channels.switched"));
  });

  const columns: ColumnDef<Channel>[] = [
    { accessorKey: "typeName", header: t("payments.channels.type") },
    { accessorKey: "name", header: t("payments.channels.name") },
    { accessorKey: "environment", header: t("payments.channels.environment"), meta: { priority: 3 }, cell: ({ row }) => t(`payments.channels.${row.original.environment}`) },
    { accessorKey: "currency", header: t("payments.channels.currency"), meta: { priority: 2 } },
    {
      accessorKey: "enabled",
      header: t("payments.channels.status"),
      cell: ({ row }) => <Badge variant={row.original.enabled ? "secondary" : "outline"}>{t(row.original.enabled ? "payments.channels.enabled" : "payments.channels.disabled")}</Badge>,
    },
    // An enabled channel is locked: switched off before it is edited or deleted (docs/rules/payments.md "Channels").
    actionsColumn<Channel>(t("payments.channels.actions"), (c) => {
      const locked = { disabled: c.enabled, hint: c.enabled ? t("payments.channels.locked") : undefined };
      return [
        toggle(c.enabled, () => fetcher.submit({ intent: "enable", id: c.id, enabled: String(!c.enabled) }, { method: "post" }), {
          enable: t("payments.channels.enableConfirm", { name: c.name }),
          disable: t("payments.channels.disableConfirm", { name: c.name }),
          enableLabel: t("payments.channels.enable"),
          disableLabel: t("payments.channels.disable"),
        }),
        remove(() => fetcher.submit({ intent: "delete", id: c.id }, { method: "post" }), { message: t("payments.channels.deleteConfirm", { name: c.name }), label: t("payments.channels.delete"), ...locked }),
        edit(() => setEditing(c), locked),
      ];
    }),
  ];

  const failedColumns: ColumnDef<Failed>[] = [
    { accessorKey: "createdAt", header: t("payments.card.time"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    { accessorKey: "customerId", header: t("payments.card.customer") },
    { accessorKey: "kind", header: t("payments.card.kind"), meta: { priority: 3 }, cell: ({ row }) => t(`payments.card.kinds.${row.original.kind}`) },
    { accessorKey: "amount", header: t("payments.card.amount"), cell: ({ row }) => money(row.original.amount) },
    { accessorKey: "error", header: t("payments.card.error"), meta: { priority: 2 }, cell: ({ row }) => <span className="block max-w-64 break-words">{row.original.error ?? "—"}</span> },
    actionsColumn<Failed>(
      t("payments.channels.actions"),
      ({ billId, amount }) => [
        billId !== null && {
          label: t("payments.card.retry"),
          icon: RotateCcw,
          onSelect: () => submitOnce({ intent: "retry", id: billId }, { method: "post" }),
          confirm: { message: t("payments.card.retryConfirm", { amount: money(amount) }) },
        },
      ],
      140,
    ),
  ];

  const title = t("payments.channels.title");
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={title}
        description={t("paypal.channels.adapters", { types: UNSUPPORTED })}
        actions={
          <Button onClick={() => setEditing("new")}>
            <Plus aria-hidden />
            {t("payments.channels.add")}
          </Button>
        }
      />
      <DataTable
        columns={columns}
        page={{ records: channels, total: channels.length, current: 1, size: Math.max(channels.length, 10) }}
        // At most one channel per type: one page.
        onPageChange={() => undefined}
        getRowId={(c) => String(c.id)}
        emptyHint={t("payments.channels.empty")}
        label={title}
      />
      <p className="text-sm text-muted-foreground break-all">
        {t("payments.channels.webhook")}: <code>{webhookUrl}</code>
      </p>
      <p className="text-sm text-muted-foreground break-all">
        {t("paypal.channels.webhook")}: <code>{paypalWebhookUrl}</code>
      </p>
      {failed && (
        <section className="flex flex-col gap-2" aria-labelledby="failed-payments">
          <h2 id="failed-payments" className="text-base font-semibold">
            {t("payments.card.failedTitle")}
          </h2>
          <DataTable columns={failedColumns} page={failed} onPageChange={onPageChange} getRowId={(p) => String(p.id)} emptyHint={t("payments.card.failedEmpty")} label={t("payments.card.failedTitle")} />
        </section>
      )}
      {editing !== null && <ChannelDialog channel={editing === "new" ? null : editing} currency={currency} onClose={() => setEditing(null)} />}
    </div>
  );
}

/**
 * Adds or edits a channel: the type first, then the fields and the credentials it needs. The
 * currency is the operator's main one and cannot be changed; a new type or gateway needs its
 * credentials again (docs/rules/settings.md "Secrets at rest").
 */
function ChannelDialog({ channel, currency, onClose }: { channel: Channel | null; currency: string; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof action>();
  const [type, setType] = useState(channel ? String(channel.type) : "");
  // Money is typed in major units of the main currency (docs/rules/console.md "Forms").
  const { decimals } = useFormat().currency;
  const [errors, setErrors] = useState<Record<string, string>>({});
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("payments.channels.saved"));
      onClose();
    },
    (name, message) => setErrors((e) => ({ ...e, [name]: message })),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setErrors({});
    if (type === "") return setErrors({ type: t("payments.validation.typeFirst") });
    fetcher.submit(new FormData(event.currentTarget), { method: "post" });
  };
  const field = (name: string, label: string, props: Record<string, unknown> = {}) => (
    <div className="flex flex-col gap-1.5" key={name}>
      <Label htmlFor={`channel-${name}`}>{label}</Label>
      <Input id={`channel-${name}`} name={name} aria-invalid={Boolean(errors[name])} aria-describedby={errors[name] ? `channel-${name}-error` : undefined} {...props} />
      {errors[name] && (
        <p id={`channel-${name}-error`} className="text-xs text-destructive">
          {errors[name]}
        </p>
      )}
    </div>
  );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t(channel ? "payments.channels.edit" : "payments.channels.add")}</DialogTitle>
            <DialogDescription>{t("payments.channels.credentialHint")}</DialogDescription>
          </DialogHeader>
          <input type="hidden" name="intent" value="save" />
          {channel && <input type="hidden" name="id" value={channel.id} />}
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="channel-type">{t("payments.channels.type")}</Label>
            <NativeSelect id="channel-type" name="type" value={type} onChange={(e) => setType(e.target.value)} aria-invalid={Boolean(errors.type)}>
              <option value="">{t("payments.channels.typePlaceholder")}</option>
              {CHANNEL_TYPES.map((name, id) => (
                <option key={name} value={id}>
                  {name}
                </option>
              ))}
            </NativeSelect>
            {errors.type && <p className="text-xs text-destructive">{errors.type}</p>}
          </div>
          {type !== "" && (
            <>
              <div className="grid gap-3 sm:grid-cols-2">
                {field("name", t("payments.channels.name"), { defaultValue: channel?.name ?? CHANNEL_TYPES[Number(type)], maxLength: 60 })}
                <div className="flex flex-col gap-1.5">
                  <Label htmlFor="channel-environment">{t("payments.channels.environment")}</Label>
                  <NativeSelect id="channel-environment" name="environment" defaultValue={channel?.environment ?? "sandbox"}>
                    {ENVIRONMENTS.map((e) => (
                      <option key={e} value={e}>
                        {t(`payments.channels.${e}`)}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
                {field("currency", t("payments.channels.currency"), { value: currency, readOnly: true, title: t("payments.channels.currencyHint") })}
                {field("minimumValue", t("formsHelp.money.minimumValue", { currency }), { defaultValue: amountInput(channel?.minimumValue ?? 0, decimals), inputMode: "decimal" })}
                {field("bankId", t("payments.channels.bankId"), { defaultValue: channel?.bankId ?? "" })}
                {field("bankName", t("payments.channels.bankName"), { defaultValue: channel?.bankName ?? "" })}
                {field("currentAccount", t("payments.channels.currentAccount"), { defaultValue: channel?.currentAccount ?? "" })}
                {field("gateway", t("payments.channels.gateway"), { defaultValue: channel?.gateway ?? "", placeholder: t("payments.channels.gatewayHint") })}
              </div>
              <fieldset className="flex flex-col gap-3">
                <legend className="mb-2 text-sm font-medium">{t("payments.channels.credentials")}</legend>
                {channel && <p className="text-xs text-muted-foreground">{t(Number(type) === PAYPAL ? "paypal.channels.destinationHint" : "payments.channels.destinationHint")}</p>}
                {Number(type) === PAYPAL && <p className="text-xs text-muted-foreground">{t("paypal.channels.environmentHint")}</p>}
                {credentialsOf(Number(type)).map((f) =>
                  field(`credentials.${f}`, t(credentialLabel(Number(type), f)), {
                    type: "password",
                    autoComplete: "off",
                    placeholder: channel?.credentials[f] ?? "",
                  }),
                )}
              </fieldset>
            </>
          )}
          <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
