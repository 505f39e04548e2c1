import { checkAmount, toMinorUnits } from "../amounts";
import { parameterSettingsInput, type CurrencySet } from "./settings";
import { AMOUNT_MESSAGES, amountInput } from "./stations";

/**
 * The console's parameter-settings form (docs/rules/settings.md "The console screen"): the same
 * document as the API with its amounts typed in display units of the main currency, the recharge
 * amounts and area codes as text. `toSettingsInput` converts it and checks it with the API's own
 * schema, so the form shows the server's messages at the same field paths before sending.
 */

interface CurrencyItems {
  mainCurrency: string;
  currencies: CurrencySet[];
}

/** What GET answers, as far as the form reads it; the other items pass through as they are. */
export type SettingsDocument = CurrencyItems & {
  membership: { silverFee: number; goldFee: number; silverDiscount: number; goldDiscount: number };
  minimumRecharge: number;
  minimumChargeBalance: number;
  adHocHold?: number | null;
  rechargeParameter: { presets: number[] };
  areaCodes: string[];
} & { [item: string]: unknown };

export type SettingsForm = CurrencyItems & {
  membership: { silverFee: string; goldFee: string; silverDiscount: string; goldDiscount: string };
  minimumRecharge: string;
  minimumChargeBalance: string;
  /** Empty: the default hold (docs/rules/payments.md "Ad-hoc payment"). */
  adHocHold: string;
  rechargeParameter: { presets: string };
  areaCodes: string;
} & { [item: string]: unknown };

/** Decimals of the main currency the form has chosen (the amounts are typed in it). */
export function formDecimals(form: Pick<SettingsForm, "mainCurrency" | "currencies">): number {
  const main = form.currencies.find((c) => c.code === form.mainCurrency) ?? form.currencies[0];
  const decimals = Number(main?.decimals);
  return Number.isInteger(decimals) && decimals >= 0 && decimals <= 4 ? decimals : 0;
}

/** A list typed as text: "20 50 100" or "48, 49". */
const listOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((item) => item.trim())
    .filter(Boolean);

export function toSettingsForm(doc: SettingsDocument): SettingsForm {
  const decimals = formDecimals(doc);
  const money = (minor: number) => amountInput(minor, decimals);
  return {
    ...doc,
    membership: {
      silverFee: money(doc.membership.silverFee),
      goldFee: money(doc.membership.goldFee),
      silverDiscount: String(doc.membership.silverDiscount),
      goldDiscount: String(doc.membership.goldDiscount),
    },
    minimumRecharge: money(doc.minimumRecharge),
    minimumChargeBalance: money(doc.minimumChargeBalance),
    adHocHold: doc.adHocHold == null ? "" : money(doc.adHocHold),
    rechargeParameter: { presets: doc.rechargeParameter.presets.map(money).join(" ") },
    areaCodes: doc.areaCodes.join(", "),
  };
}

/**
 * The form as the API's body, with the message of every refused field by its path: the amounts
 * by the currency-decimals rules, everything else by the API's schema.
 */
export function toSettingsInput(form: SettingsForm): { input: Record<string, unknown>; errors: Record<string, string> } {
  const decimals = formDecimals(form);
  const errors: Record<string, string> = {};
  const amount = (path: string, text: string, requiredKey: string) => {
    const problem = checkAmount(text, decimals);
    if (problem) {
      errors[path] = problem === "required" ? requiredKey : AMOUNT_MESSAGES[problem];
      return Number.NaN;
    }
    return toMinorUnits(text, decimals);
  };
  const presets = listOf(form.rechargeParameter.presets);
  const input = {
    ...form,
    membership: {
      ...form.membership,
      silverFee: amount("membership.silverFee", form.membership.silverFee, "settings.validation.membershipFee"),
      goldFee: amount("membership.goldFee", form.membership.goldFee, "settings.validation.membershipFee"),
    },
    minimumRecharge: amount("minimumRecharge", form.minimumRecharge, "settings.validation.minimumRecharge"),
    minimumChargeBalance: amount("minimumChargeBalance", form.minimumChargeBalance, "settings.validation.minimumChargeBalance"),
    adHocHold: (form.adHocHold ?? "").trim() === "" ? null : amount("adHocHold", form.adHocHold, "settings.validation.adHocHold"),
    rechargeParameter: {
      presets: presets.map((text) => {
        const value = amount("rechargeParameter.presets", text, "settings.validation.rechargePreset");
        return Number.isNaN(value) ? 0 : value;
      }),
    },
    areaCodes: listOf(form.areaCodes),
  };
  const parsed = parameterSettingsInput.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // Amounts already refused keep their own message; list items report on the list's field.
      const path = issue.path[0] === "rechargeParameter" ? "rechargeParameter.presets" : issue.path[0] === "areaCodes" ? "areaCodes" : issue.path.join(".");
      if (!errors[path]) errors[path] = /validation\./.test(issue.message) ? issue.message : "validation.invalid";
    }
  }
  return { input, errors };
}
