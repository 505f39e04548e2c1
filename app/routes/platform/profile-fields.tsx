import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { TextField } from "~/components/form/fields";

/**
 * The contact, accounts and branding fields an operator and a sub-operator share
 * (domain/schemas/platform.ts `profile`).
 */
export function ProfileFields<T extends FieldValues>({ control }: { control: Control<T> }) {
  const { t } = useTranslation();
  // Any form whose values include the profile's fields.
  const n = (name: string) => name as FieldPath<T>;
  return (
    <>
      <TextField control={control} name={n("name")} label={t("operators.name")} required />
      <TextField control={control} name={n("contactName")} label={t("operators.contactName")} />
      <TextField control={control} name={n("contactPhone")} label={t("operators.contactPhone")} type="tel" />
      <TextField control={control} name={n("contactEmail")} label={t("operators.contactEmail")} type="email" />
      <TextField control={control} name={n("chargeAccount")} label={t("operators.chargeAccount")} />
      <TextField control={control} name={n("clearingAccount")} label={t("operators.clearingAccount")} />
      <TextField control={control} name={n("cardPaymentAccount")} label={t("operators.cardPaymentAccount")} />
      <TextField control={control} name={n("paypalAccount")} label={t("operators.paypalAccount")} />
      <TextField control={control} name={n("homeUrl")} label={t("operators.homeUrl")} type="url" />
      <TextField control={control} name={n("openingHours")} label={t("operators.openingHours")} />
    </>
  );
}

/** The first administrator of a new operator or sub-operator. */
export function AdminFields<T extends FieldValues>({ control }: { control: Control<T> }) {
  const { t } = useTranslation();
  // Any form with an `admin` group.
  const n = (name: string) => name as FieldPath<T>;
  return (
    <>
      <TextField control={control} name={n("admin.username")} label={t("operators.adminUsername")} required autoComplete="off" />
      <TextField control={control} name={n("admin.name")} label={t("operators.adminName")} required />
      <TextField control={control} name={n("admin.email")} label={t("operators.adminEmail")} type="email" required />
    </>
  );
}

/** Profile values as a form holds them: text, empty when not set. */
export function profileDefaults(record: Partial<Record<string, unknown>> | null) {
  const text = (key: string) => (typeof record?.[key] === "string" ? (record[key] as string) : "");
  return {
    name: text("name"),
    contactName: text("contactName"),
    contactPhone: text("contactPhone"),
    contactEmail: text("contactEmail"),
    chargeAccount: text("chargeAccount"),
    clearingAccount: text("clearingAccount"),
    cardPaymentAccount: text("cardPaymentAccount"),
    paypalAccount: text("paypalAccount"),
    homeUrl: text("homeUrl"),
    openingHours: text("openingHours"),
  };
}
