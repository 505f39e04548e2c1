import { checkAmount, toMinorUnits } from "../../../domain/amounts";
import type { IdleUnit, ServiceUnit, StrategyPrices } from "../../../domain/pricing";
import { strategyInput, type StrategyInput } from "../../../domain/schemas/pricing";
import { amountInput } from "../../../domain/schemas/stations";
import type { DraftSlot } from "./slot-editor";

/**
 * The editor's working copy of a strategy (docs/rules/pricing.md "The editor"): texts as typed,
 * amounts in display units. `readDraft` turns it into the API's body and checks it with the shared
 * schema, so the editor shows the server's messages before sending.
 */
export interface DraftIdle {
  enabled: boolean;
  unit: IdleUnit;
  price: string;
  freeMinutes: string;
}

export interface Draft {
  name: string;
  electricity: DraftSlot[];
  serviceUnit: ServiceUnit;
  service: DraftSlot[];
  before: DraftIdle;
  during: DraftIdle;
  after: DraftIdle & { capAmount: string };
  minimumThreshold: string;
  preAuthAmount: string;
  /** Not in the form: an older strategy's value is carried through an edit unchanged (docs/decisions/0079-no-subscription-price-on-strategies.md). */
  subscriptionPrice: string;
}

const DAY: DraftSlot[] = [{ start: "00:00", end: "24:00", price: "" }];
const noIdle = (): DraftIdle => ({ enabled: false, unit: "MINUTE", price: "", freeMinutes: "0" });

export const emptyDraft = (): Draft => ({
  name: "",
  electricity: DAY,
  serviceUnit: "NONE",
  service: DAY,
  before: noIdle(),
  during: noIdle(),
  after: { ...noIdle(), capAmount: "" },
  minimumThreshold: "",
  preAuthAmount: "",
  subscriptionPrice: "",
});

type Saved = StrategyPrices & { name: string };

const idleDraft = (fee: StrategyPrices["idle"]["before"]): DraftIdle =>
  fee ? { enabled: true, unit: fee.unit, price: fee.price, freeMinutes: String(fee.freeMinutes) } : noIdle();

/** A saved strategy as a draft (for edit and copy). */
export function draftOf(saved: Saved, decimals: number, name = saved.name): Draft {
  const amount = (minor: number | null | undefined) => amountInput(minor ?? null, decimals);
  return {
    name,
    electricity: saved.electricity.slots,
    serviceUnit: saved.service.unit,
    service: saved.service.slots.length ? saved.service.slots : DAY,
    before: idleDraft(saved.idle.before),
    during: idleDraft(saved.idle.during),
    after: { ...idleDraft(saved.idle.after), capAmount: amount(saved.idle.after?.capAmount) },
    minimumThreshold: amount(saved.minimumThreshold),
    preAuthAmount: amount(saved.preAuthAmount),
    subscriptionPrice: amount(saved.subscriptionPrice),
  };
}

/** Field path → message key (and its parameters). */
export type DraftErrors = Record<string, { key: string; params?: Record<string, unknown> }>;

const AMOUNT_MESSAGES = {
  required: "stations.validation.amountNumber",
  number: "stations.validation.amountNumber",
  decimals: "stations.validation.decimals",
  trailingDot: "stations.validation.trailingDot",
} as const;

/** The API body of a draft, checked by the shared schema: the parsed input, or each field's message. */
export function readDraft(draft: Draft, decimals: number): { input?: StrategyInput; body: unknown; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const amount = (path: string, text: string) => {
    if (text.trim() === "") return null;
    const problem = checkAmount(text, decimals);
    if (problem) {
      errors[path] = { key: AMOUNT_MESSAGES[problem], params: { decimals } };
      return null;
    }
    return toMinorUnits(text, decimals);
  };
  const idle = (fee: DraftIdle) => (fee.enabled ? { unit: fee.unit, price: fee.price, freeMinutes: fee.freeMinutes } : null);
  const body = {
    name: draft.name,
    electricity: { slots: draft.electricity },
    service: { unit: draft.serviceUnit, slots: draft.serviceUnit === "NONE" ? [] : draft.service },
    idle: {
      before: idle(draft.before),
      during: idle(draft.during),
      after: draft.after.enabled ? { ...idle(draft.after), capAmount: amount("idle.after.capAmount", draft.after.capAmount) } : null,
    },
    minimumThreshold: amount("minimumThreshold", draft.minimumThreshold),
    preAuthAmount: amount("preAuthAmount", draft.preAuthAmount),
    subscriptionPrice: amount("subscriptionPrice", draft.subscriptionPrice),
  };
  const parsed = strategyInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join(".");
      errors[path] ??= { key: /validation\./.test(issue.message) ? issue.message : "validation.invalid" };
    }
  }
  return { input: parsed.success && Object.keys(errors).length === 0 ? parsed.data : undefined, body, errors };
}

/** The first message among the fields under `prefix` (a section shows one). */
export function errorUnder<T>(errors: Record<string, T>, prefix: string): T | undefined {
  const key = Object.keys(errors).find((k) => k === prefix || k.startsWith(`${prefix}.`));
  return key === undefined ? undefined : errors[key];
}
