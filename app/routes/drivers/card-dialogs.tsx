import { zodResolver } from "@hookform/resolvers/zod";
import { ScanLine } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Controller, useForm, useWatch, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { utcToZoned, zonedToUtc } from "../../../domain/time";
import { cardFields, cardLostInput, DELIVERY_TYPES } from "../../../domain/schemas/drivers";
import { SelectField, TextField } from "~/components/form/fields";
import { FormField, hintId } from "~/components/form/form-field";
import { useFormat } from "~/components/format";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toast";
import { readCard, readerPort, rememberReaderPort, RfReaderError } from "~/lib/rf-reader";
import { CustomerSelect, type Option } from "./pickers";
import { FormDialogFooter } from "~/components/form/dialog-footer";

/** A card as the list shows it. */
export interface CardRecord {
  id: number;
  cardName: string | null;
  idTag: string;
  status: string;
  bindStatus: string;
  customerId: number | null;
  customerName: string | null;
  customerEmail: string | null;
  expiryDate: string | null;
  deliveryType: "TAKE" | "SEND";
  pickupNumber: string | null;
  pickupPhone: string | null;
  pickupAddress: string | null;
  trackingNumber: string | null;
  recipientName: string | null;
  recipientPhone: string | null;
  recipientAddress: string | null;
  /** The lost card this one replaced, and the card that replaced a lost one (docs/rules/drivers.md "Lost cards"). */
  replacesIdTag: string | null;
  replacedByIdTag: string | null;
}

/** The form keeps the expiry as the operator's wall-clock time (a datetime-local field); it is sent as an instant. */
const cardForm = cardFields.extend({ expiryDate: z.string().optional() });
type CardFormValues = z.input<typeof cardForm>;

/** Fills the id tag from a desktop RF reader through its local bridge (docs/rf-reader-bridge.md). */
function ReadCardButton({ onRead }: { onRead: (idTag: string) => void }) {
  const { t } = useTranslation();
  const portId = useId();
  const [port, setPort] = useState<number>(18888);
  const [reading, setReading] = useState(false);
  useEffect(() => setPort(readerPort()), []);
  const read = async () => {
    setReading(true);
    rememberReaderPort(port);
    try {
      onRead(await readCard(port));
      toast.success(t("drivers.rfReader.read"));
    } catch (error) {
      toast.error(t(error instanceof RfReaderError && error.reason === "connectionFailed" ? "drivers.rfReader.connectionFailed" : "drivers.rfReader.readFailed"));
    } finally {
      setReading(false);
    }
  };
  return (
    <div className="flex flex-wrap items-end gap-2">
      <Button type="button" variant="outline" onClick={() => void read()} disabled={reading}>
        <ScanLine aria-hidden />
        {reading ? t("drivers.rfReader.reading") : t("drivers.rfReader.button")}
      </Button>
      <div className="flex items-center gap-2">
        <Label htmlFor={portId} className="text-xs text-muted-foreground">
          {t("drivers.rfReader.port")}
        </Label>
        <Input id={portId} type="number" min={1} max={65535} className="h-8 w-24" value={port} onChange={(e) => setPort(Number(e.target.value))} />
      </div>
    </div>
  );
}

/** Issue or edit a card: id tag (typed or read), delivery with the details of its type, expiry and owner. */
export function CardFormDialog({
  open,
  card,
  saving,
  onClose,
  onSubmit,
  errors,
}: {
  open: boolean;
  card: CardRecord | null;
  saving: boolean;
  onClose: () => void;
  onSubmit: (values: Record<string, unknown>) => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const { timeZone } = useFormat();
  const ownerId = useId();
  const form = useForm<CardFormValues>({ resolver: zodResolver(cardForm) as Resolver<CardFormValues> });
  useEffect(() => {
    if (!open) return;
    form.reset({
      cardName: card?.cardName ?? "",
      idTag: card?.idTag ?? "",
      deliveryType: card?.deliveryType ?? "TAKE",
      pickupNumber: card?.pickupNumber ?? "",
      pickupPhone: card?.pickupPhone ?? "",
      pickupAddress: card?.pickupAddress ?? "",
      trackingNumber: card?.trackingNumber ?? "",
      recipientName: card?.recipientName ?? "",
      recipientPhone: card?.recipientPhone ?? "",
      recipientAddress: card?.recipientAddress ?? "",
      expiryDate: card?.expiryDate ? utcToZoned(Date.parse(card.expiryDate), timeZone) : "",
      customerId: card?.customerId ?? null,
    });
  }, [open, card, form, timeZone]);
  useEffect(() => {
    for (const [name, message] of Object.entries(errors)) form.setError(name as keyof CardFormValues, { message });
  }, [errors, form]);
  const delivery = useWatch({ control: form.control, name: "deliveryType" });
  const submit = form.handleSubmit((values) => {
    const at = values.expiryDate ? zonedToUtc(values.expiryDate, timeZone) : undefined;
    if (values.expiryDate && at === undefined) return form.setError("expiryDate", { message: t("drivers.validation.expiryDate") });
    onSubmit({ ...values, expiryDate: at === undefined ? null : new Date(at).toISOString() });
  });
  const current: Option | null = card?.customerId ? { id: card.customerId, label: `${card.customerName} · ${card.customerEmail}` } : null;
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{card ? t("drivers.cards.edit") : t("drivers.cards.add")}</DialogTitle>
            <DialogDescription>{t("drivers.cards.formHint")}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="flex flex-col gap-2 sm:col-span-2">
              <TextField control={form.control} name="idTag" label={t("drivers.cards.fields.idTag")} required autoComplete="off" />
              <ReadCardButton onRead={(idTag) => form.setValue("idTag", idTag, { shouldValidate: true })} />
            </div>
            <TextField control={form.control} name="cardName" label={t("drivers.cards.fields.cardName")} />
            <TextField control={form.control} name="expiryDate" label={t("drivers.cards.fields.expiryDate")} type="datetime-local" />
            <SelectField
              control={form.control}
              name="deliveryType"
              label={t("drivers.cards.fields.deliveryType")}
              required
              options={DELIVERY_TYPES.map((d) => ({ value: d, label: t(`drivers.cards.delivery.${d}`) }))}
            />
            {card?.bindStatus === "BIND" ? (
              // A bound card changes owner only through unbind and bind (docs/rules/drivers.md "RFID cards").
              <FormField id={ownerId} label={t("drivers.cards.fields.owner")} hint={t("drivers.cards.ownerFixed")} error={errors.customerId}>
                <Input id={ownerId} value={current?.label ?? ""} readOnly aria-describedby={hintId(ownerId)} />
              </FormField>
            ) : (
              <Controller
                control={form.control}
                name="customerId"
                render={({ field, fieldState }) => (
                  <FormField id={ownerId} label={t("drivers.cards.fields.owner")} error={fieldState.error?.message && t(fieldState.error.message)}>
                    <CustomerSelect id={ownerId} value={(field.value as number | null | undefined) ?? null} onChange={field.onChange} current={current} invalid={Boolean(fieldState.error)} />
                  </FormField>
                )}
              />
            )}
            {delivery === "SEND" ? (
              <>
                <TextField control={form.control} name="trackingNumber" label={t("drivers.cards.fields.trackingNumber")} />
                <TextField control={form.control} name="recipientName" label={t("drivers.cards.fields.recipientName")} />
                <TextField control={form.control} name="recipientPhone" label={t("drivers.cards.fields.recipientPhone")} type="tel" />
                <TextField control={form.control} name="recipientAddress" label={t("drivers.cards.fields.recipientAddress")} />
              </>
            ) : (
              <>
                <TextField control={form.control} name="pickupNumber" label={t("drivers.cards.fields.pickupNumber")} />
                <TextField control={form.control} name="pickupPhone" label={t("drivers.cards.fields.pickupPhone")} type="tel" />
                <TextField control={form.control} name="pickupAddress" label={t("drivers.cards.fields.pickupAddress")} className="sm:col-span-2" />
              </>
            )}
          </div>
          <FormDialogFooter onCancel={onClose} busy={saving} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Pair a card with a customer. */
export function BindDialog({ card, saving, onClose, onSubmit }: { card: CardRecord | null; saving: boolean; onClose: () => void; onSubmit: (customerId: number) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [customerId, setCustomerId] = useState<number | null>(null);
  useEffect(() => setCustomerId(null), [card]);
  return (
    <Dialog open={card !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("drivers.cards.bindTitle", { idTag: card?.idTag })}</DialogTitle>
          <DialogDescription>{t("drivers.cards.bindHint")}</DialogDescription>
        </DialogHeader>
        <FormField id={id} label={t("drivers.cards.fields.owner")} required>
          <CustomerSelect id={id} value={customerId} onChange={setCustomerId} />
        </FormField>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button disabled={customerId === null || saving} onClick={() => customerId !== null && onSubmit(customerId)}>
            {t("drivers.cards.bind")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

type LostValues = z.input<typeof cardLostInput>;

/** Resume a lost card: the new card's tag, then a confirmation of what happens to the old one. */
export function LostDialog({
  card,
  saving,
  onClose,
  onSubmit,
  errors,
}: {
  card: CardRecord | null;
  saving: boolean;
  onClose: () => void;
  onSubmit: (newIdTag: string) => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const form = useForm<LostValues>({ resolver: zodResolver(cardLostInput) as Resolver<LostValues>, defaultValues: { newIdTag: "" } });
  useEffect(() => form.reset({ newIdTag: "" }), [card, form]);
  useEffect(() => {
    if (errors.newIdTag) form.setError("newIdTag", { message: errors.newIdTag });
  }, [errors, form]);
  return (
    <Dialog open={card !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <form onSubmit={form.handleSubmit((v) => onSubmit(v.newIdTag))} noValidate className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{t("drivers.cards.lostTitle", { idTag: card?.idTag })}</DialogTitle>
            <DialogDescription>{t("drivers.cards.lostConfirm", { idTag: card?.idTag, owner: card?.customerName ?? "—" })}</DialogDescription>
          </DialogHeader>
          <TextField control={form.control} name="newIdTag" label={t("drivers.cards.fields.newIdTag")} required autoComplete="off" />
          <ReadCardButton onRead={(idTag) => form.setValue("newIdTag", idTag, { shouldValidate: true })} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" variant="destructive" disabled={saving}>
              {t("drivers.cards.lost")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
