import { z } from "zod";
import { formatPrice, isPriceText } from "../pricing/decimal";
import { slotProblem, type SlotProblem } from "../pricing/slots";
import { IDLE_UNITS, SERVICE_UNITS } from "../pricing/strategy";
import { pageQuery } from "./account-service";
import { recordId, wholeNumber } from "./numbers";

/**
 * Charging strategies (docs/rules/pricing.md "Strategies"), shared by the editor and the API.
 * Unit prices are decimal texts with up to four decimals (a number is read as its text), kept in
 * their canonical four-decimal form; amounts are whole minor units.
 */

/** A unit price: at least 0, up to four decimals, answered as "0.5000". */
export const priceInput = z
  .union([z.string({ error: "pricing.validation.price" }), z.number({ error: "pricing.validation.price" })], { error: "pricing.validation.price" })
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
  .refine(isPriceText, { error: "pricing.validation.price" })
  .transform(formatPrice);

/** An amount in minor units: a whole number, 0 or more. */
const amountInput = wholeNumber("pricing.validation.amount", (n) => n.min(0, { error: "pricing.validation.amount" }).max(1_000_000_000_000, { error: "pricing.validation.amount" }));
const optionalAmount = amountInput.nullish().transform((v) => v ?? null);

const SLOT_MESSAGES: Record<SlotProblem, string> = {
  atLeastOne: "pricing.validation.slotsAtLeastOne",
  incomplete: "pricing.validation.slotsIncomplete",
  halfHour: "pricing.validation.slotsHalfHour",
  startAfterEnd: "pricing.validation.slotsStartAfterEnd",
  contiguous: "pricing.validation.slotsContiguous",
  cover: "pricing.validation.slotsCover",
};

const timeText = z.string({ error: "pricing.validation.slotsIncomplete" }).max(5, { error: "pricing.validation.slotsHalfHour" });

/** A row of a day; an empty price is a row not yet complete. */
const slotInput = z.object({
  start: timeText.optional(),
  end: timeText.optional(),
  price: z.preprocess((v) => (v === "" ? undefined : v), priceInput.optional()),
});

/**
 * A day of slots: on the half-hour grid, each starting where the previous ends, together covering
 * 00:00 to 24:00, at least one, each with its price (the message says which rule failed).
 */
const slotsInput = z
  .array(slotInput, { error: "pricing.validation.slotsAtLeastOne" })
  .max(48, { error: "pricing.validation.slotsHalfHour" })
  .superRefine((slots, issue) => {
    const missingPrice = slots.findIndex((s) => s.price === undefined);
    const found = slotProblem(slots) ?? (missingPrice >= 0 ? { problem: "incomplete" as const, index: missingPrice } : undefined);
    if (found) issue.addIssue({ code: "custom", message: SLOT_MESSAGES[found.problem], path: found.index === undefined ? [] : [found.index] });
  })
  .transform((slots) => slots.map((s) => ({ start: s.start!, end: s.end!, price: s.price! })));

const freeMinutes = wholeNumber("pricing.validation.freeMinutes", (n) =>
  n.min(0, { error: "pricing.validation.freeMinutes" }).max(10_080, { error: "pricing.validation.freeMinutes" }),
);

const idleUnit = z.enum(IDLE_UNITS, { error: "pricing.validation.idleUnit" });
const idleFee = z.object({ unit: idleUnit, price: priceInput, freeMinutes: freeMinutes.default(0) });

export const strategyInput = z
  .object({
    name: z
      .string({ error: "pricing.validation.nameRequired" })
      .trim()
      .min(1, { error: "pricing.validation.nameRequired" })
      .max(60, { error: "pricing.validation.nameLength" }),
    currency: z
      .string({ error: "pricing.validation.currency" })
      .trim()
      .regex(/^[A-Z]{3}$/, { error: "pricing.validation.currency" })
      .optional(),
    electricity: z.object({ slots: slotsInput }, { error: "pricing.validation.slotsAtLeastOne" }),
    service: z.object(
      {
        unit: z.enum(SERVICE_UNITS, { error: "pricing.validation.serviceUnit" }),
        // Without a service fee there is nothing to price: the rows may be left out.
        slots: z.array(z.unknown()).default([]),
      },
      { error: "pricing.validation.serviceUnit" },
    ),
    idle: z
      .object({
        before: idleFee.nullable().default(null),
        during: idleFee.nullable().default(null),
        after: idleFee.extend({ capAmount: optionalAmount }).nullable().default(null),
      })
      .default({ before: null, during: null, after: null }),
    minimumThreshold: optionalAmount,
    preAuthAmount: optionalAmount,
    subscriptionPrice: optionalAmount,
  })
  .transform((input, ctx) => {
    const service = input.service.unit === "NONE" && input.service.slots.length === 0 ? { success: true as const, data: [] } : slotsInput.safeParse(input.service.slots);
    if (!service.success) {
      for (const issue of service.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: ["service", "slots", ...issue.path] });
      return z.NEVER;
    }
    return { ...input, service: { unit: input.service.unit, slots: service.data } };
  });
export type StrategyInput = z.output<typeof strategyInput>;

export const strategyListQuery = pageQuery.extend({
  name: z.string().trim().max(60).optional(),
});

/** `PUT /finance-service/strategy/{id}/assign`: every point that charges by this strategy. */
export const assignInput = z.object({
  pointIds: z.array(recordId("pricing.validation.pointIds"), { error: "pricing.validation.pointIds" }).max(5_000, { error: "pricing.validation.pointIds" }),
});

/** `POST /station-service/point/issue-price`: the points whose charger shows the new price. */
export const issuePriceInput = z.object({
  pointIds: z
    .array(recordId("pricing.validation.pointIds"), { error: "pricing.validation.pointIds" })
    .min(1, { error: "pricing.validation.pointIds" })
    .max(1_000, { error: "pricing.validation.pointIds" }),
});

/** The points a strategy may be assigned to, paged (serial number, name, station, strategy). */
export const strategyPointQuery = pageQuery.extend({
  serialNumber: z.string().trim().max(48).optional(),
  stationId: recordId().optional(),
  strategyId: recordId().optional(),
});

/** The cost preview of a sample session (the editor's, with the engine the billing uses). */
export const previewSession = z.object({
  energyKwh: z.string().regex(/^\d{1,5}(\.\d{1,3})?$/, { error: "pricing.validation.energy" }),
  startTime: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, { error: "pricing.validation.startTime" }),
  durationMinutes: wholeNumber("pricing.validation.duration", (n) => n.min(0, { error: "pricing.validation.duration" }).max(10_080, { error: "pricing.validation.duration" })),
  idleBeforeMinutes: wholeNumber("pricing.validation.duration", (n) => n.min(0).max(10_080)).default(0),
  idleDuringMinutes: wholeNumber("pricing.validation.duration", (n) => n.min(0).max(10_080)).default(0),
  idleAfterMinutes: wholeNumber("pricing.validation.duration", (n) => n.min(0).max(10_080)).default(0),
});
export type PreviewSession = z.output<typeof previewSession>;
