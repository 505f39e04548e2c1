import { formatDateTime, formatEnergy, formatMoney } from "../../../domain/format";
import type { Language } from "../../../domain/languages";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { translator } from "../../i18n";
import type { Ctx } from "../context";
import { operatorSettings } from "../settings/parameter-settings";
import type { OutgoingMail } from "./transport";

/**
 * The mails the product sends (docs/rules/settings.md "Mail"), written in the operator's default
 * language unless the caller knows the reader's. Texts are catalogue entries
 * (domain/i18n/locales/<lang>/mail.json); amounts and energy are formatted like the console does.
 */
export interface MailTemplates {
  test: Record<string, never>;
  /** A new account's or a new operator's first password, shown once in the console too. */
  initialPassword: { username: string; password: string; loginUrl: string; /** The operator the account belongs to, when not the sender. */ operator?: string };
  /** A driver's charging receipt; money in minor units of the operator's main currency. */
  receipt: { transactionId: number; station: string; energyWh: number; amount: number; startedAt: string; /** The public receipt page, when the product's address is known. */ receiptUrl?: string };
  /** A work order given to a maintainer. */
  workOrderAssigned: { orderId: string; point: string; fault: string };
  /** The code that confirms deleting a driver's account. */
  deletionCode: { code: string; minutes: number };
}
export type MailTemplate = keyof MailTemplates;

export type MailRequest<T extends MailTemplate = MailTemplate> = {
  to: string;
  template: T;
  params: MailTemplates[T];
  /** The reader's language when known; the operator's default otherwise. */
  lang?: Language;
};

export async function renderMail(ctx: Pick<Ctx, "db" | "operator">, request: MailRequest): Promise<OutgoingMail> {
  const settings = await operatorSettings(ctx);
  const lang = request.lang ?? settings.defaultLanguage;
  const t = translator(lang);
  const style = { language: lang, decimalSeparator: settings.decimalSeparator };
  const values: Record<string, unknown> = { operator: ctx.operator.code, ...request.params };
  if (request.template === "receipt") {
    const receipt = request.params as MailTemplates["receipt"];
    values.energy = formatEnergy(receipt.energyWh, style);
    values.amount = formatMoney(receipt.amount, mainCurrencyOf(settings), style);
    values.startedAt = formatDateTime(receipt.startedAt, settings.timeZone, lang);
  }
  const link = request.template === "receipt" && values.receiptUrl ? `\n\n${t("mail.receipt.link", values)}` : "";
  return {
    to: request.to,
    subject: t(`mail.${request.template}.subject`, values),
    text: t(`mail.${request.template}.text`, values) + link,
  };
}
