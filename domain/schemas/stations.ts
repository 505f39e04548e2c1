import { z } from "zod";
import { checkAmount, toMinorUnits } from "../amounts";
import { IMAGE_KINDS } from "../images";
import { isTimeZone } from "../time";
import { pageQuery, recordStatus } from "./account-service";
import { powerKw } from "./equipment";

/**
 * Stations (locations; docs/rules/equipment.md "Stations"): one set of field rules for the console
 * form and the API. The API takes money in integer minor units
 * (docs/decisions/0005-money-in-minor-units.md); the form takes the amount as typed, in the
 * operator's currency decimals (docs/rules/console.md "Forms"), and `toStationInput` converts it.
 * Messages are catalogue keys (domain/i18n/locales/<lang>/stations.json).
 */

/** Empty form inputs and JSON nulls both mean "not given". */
export const blank = (value: unknown) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value);

const requiredText = (max: number, requiredKey: string) =>
  z.string({ error: requiredKey }).trim().min(1, { error: requiredKey }).max(max, { error: "stations.validation.tooLong" });

const optionalText = (max: number) =>
  z.preprocess(blank, z.string({ error: "stations.validation.text" }).trim().max(max, { error: "stations.validation.tooLong" }).optional());

/** Decimal degrees with up to 7 decimals (about 1 cm), kept as text as the table stores them. */
const DEGREES = /^-?\d{1,3}(\.\d{1,7})?$/;

const coordinate = (limit: number, key: string) =>
  z.preprocess(
    blank,
    z
      .union([z.number({ error: key }), z.string({ error: key })], { error: key })
      .transform((value, issue) => {
        const text = typeof value === "number" ? (Number.isFinite(value) ? value.toFixed(7).replace(/\.?0+$/, "") : "") : value.trim();
        if (!DEGREES.test(text) || Math.abs(Number(text)) > limit) {
          issue.addIssue({ code: "custom", message: key });
          return z.NEVER;
        }
        return String(Number(text));
      })
      .optional(),
  );

/** Latitude −90..90 and longitude −180..180 (docs/rules/equipment.md "Stations"). */
export const latitude = coordinate(90, "stations.validation.latitude");
export const longitude = coordinate(180, "stations.validation.longitude");

/** Rank: larger values are listed first (docs/rules/equipment.md "Stations"). */
const rank = z.preprocess(
  (value) => {
    const v = blank(value);
    return typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  },
  z
    .number({ error: (issue) => (issue.input === undefined ? "stations.validation.rankRequired" : "stations.validation.rank") })
    .int({ error: "stations.validation.rank" })
    .min(0, { error: "stations.validation.rank" })
    .max(9999, { error: "stations.validation.rank" }),
);

/** Same rule as account phones: the phone must be valid (docs/rules/equipment.md "Stations"). */
const servicePhone = requiredText(32, "stations.validation.phoneRequired").regex(/^\+?[0-9][0-9 -]{4,30}$/, { error: "stations.validation.phone" });

/** The R2 key of an uploaded logo (POST /user-service/file/upload?kind=logo). */
export const stationFilesPrefix = (operatorId: number) => `operators/${operatorId}/public/stations/`;
const logoKey = z.preprocess(
  blank,
  z
    .string({ error: "stations.validation.logo" })
    .max(300, { error: "stations.validation.logo" })
    .regex(/^operators\/\d+\/public\/stations\/[A-Za-z0-9/_.-]+$/, { error: "stations.validation.logo" })
    .optional(),
);

/** The R2 key of an uploaded map icon (POST /user-service/file/upload?kind=mapIcon): the marker of the station on maps. */
const mapIconKey = z.preprocess(
  blank,
  z
    .string({ error: "stations.validation.mapIcon" })
    .max(300, { error: "stations.validation.mapIcon" })
    .regex(/^operators\/\d+\/public\/stations\/map-icons\/[A-Za-z0-9/_.-]+$/, { error: "stations.validation.mapIcon" })
    .optional(),
);

const fields = {
  name: requiredText(64, "stations.validation.nameRequired"),
  address: requiredText(200, "stations.validation.addressRequired"),
  lat: latitude,
  lng: longitude,
  /**
   * Must be said either way: the parking fee is a required field
   * (docs/rules/equipment.md "Stations").
   */
  parkingFee: z.boolean({ error: "stations.validation.parkingFee" }),
  servicePhone,
  maintainer: requiredText(64, "stations.validation.maintainerRequired"),
  rank,
  price: optionalText(100),
  businessHours: requiredText(100, "stations.validation.businessHoursRequired"),
  description: requiredText(1000, "stations.validation.descriptionRequired"),
  logoKey,
  mapIconKey,
  /** kW with at most two decimals (docs/rules/equipment.md "Stations"); the table keeps W. */
  powerLimit: z.preprocess(blank, powerKw.optional()),
  /**
   * IANA zone of the site; pricing uses the station's local day
   * (docs/architecture.md "Time, money and units").
   */
  timeZone: z.preprocess(
    blank,
    z
      .string({ error: "stations.validation.timeZone" })
      .max(64, { error: "stations.validation.timeZone" })
      .refine(isTimeZone, { error: "stations.validation.timeZone" })
      .optional(),
  ),
};

interface SharedRules {
  lat?: string;
  lng?: string;
  parkingFee: boolean;
}

/**
 * Both coordinates or neither (neither: the address is geocoded,
 * docs/rules/equipment.md "Station coordinates").
 */
function coordinatePair(value: SharedRules, issue: z.RefinementCtx) {
  if ((value.lat === undefined) !== (value.lng === undefined)) {
    issue.addIssue({ code: "custom", path: [value.lat === undefined ? "lat" : "lng"], message: "stations.validation.coordinatesBoth" });
  }
}

/** Parking fee amount in minor units; required when parking is charged. */
const minorAmount = z.preprocess(
  blank,
  z
    .number({ error: "stations.validation.parkingFeeAmount" })
    .int({ error: "stations.validation.parkingFeeAmount" })
    .min(0, { error: "stations.validation.parkingFeeAmount" })
    .max(1_000_000_000, { error: "stations.validation.parkingFeeAmount" })
    .optional(),
);

export const stationInput = z.object({ ...fields, parkingFeeAmount: minorAmount }).superRefine((value, issue) => {
  coordinatePair(value, issue);
  if (value.parkingFee && value.parkingFeeAmount === undefined) {
    issue.addIssue({ code: "custom", path: ["parkingFeeAmount"], message: "stations.validation.parkingFeeAmountRequired" });
  }
});
export type StationInput = z.infer<typeof stationInput>;

/** Amount messages, by the problem `checkAmount` finds (docs/rules/console.md "Forms"). */
export const AMOUNT_MESSAGES = {
  required: "stations.validation.parkingFeeAmountRequired",
  number: "stations.validation.amountNumber",
  decimals: "stations.validation.decimals",
  trailingDot: "stations.validation.trailingDot",
} as const;

/**
 * The console form: the same fields, with the parking fee as typed in display units and checked
 * against the operator's currency decimals ('decimals cannot exceed {{decimals}}').
 */
export function stationForm(decimals: number) {
  return z.object({ ...fields, parkingFeeAmount: z.string().default("") }).superRefine((value, issue) => {
    coordinatePair(value, issue);
    if (!value.parkingFee) return;
    const problem = checkAmount(value.parkingFeeAmount, decimals);
    if (problem) issue.addIssue({ code: "custom", path: ["parkingFeeAmount"], message: AMOUNT_MESSAGES[problem] });
  });
}
export type StationFormValues = z.input<ReturnType<typeof stationForm>>;
export type StationFormOutput = z.output<ReturnType<typeof stationForm>>;

/** The form's values as the API's input: the parking fee in minor units, or none when parking is free. */
export function toStationInput(form: StationFormOutput, decimals: number): z.input<typeof stationInput> {
  const { parkingFeeAmount, ...rest } = form;
  return { ...rest, parkingFeeAmount: form.parkingFee ? toMinorUnits(parkingFeeAmount, decimals) : undefined };
}

/** Minor units back to the form's display amount: 550 with 2 decimals → "5.50". */
export function amountInput(minor: number | null, decimals: number): string {
  if (minor === null) return "";
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : "";
  return `${minor < 0 ? "-" : ""}${whole}${fraction}`;
}

/**
 * GET /station-service/station: highest rank first, filtered on the server
 * (docs/rules/lists.md "Filters and sorting").
 */
export const stationListQuery = pageQuery.extend({
  name: z.string().trim().max(64).optional(),
  address: z.string().trim().max(200).optional(),
  status: recordStatus.optional(),
  parkingFee: z.enum(["true", "false"], { error: "stations.validation.parkingFeeFilter" }).optional(),
});

export const stationStatusInput = z.object({ status: recordStatus });

export const geocodeQuery = z.object({ address: requiredText(200, "stations.validation.addressRequired") });

/** POST /user-service/file/upload?kind=… */
export const imageKind = z.enum(IMAGE_KINDS, { error: "stations.validation.imageKind" });
export const uploadQuery = z.object({ kind: imageKind });

