import { z } from "zod";
import { PARTNER_ROLES } from "../../ocpi/roles";
import { pageQuery } from "../account-service";
import { recordId } from "../numbers";

/** Bodies and queries of the roaming console and `/ocpi-service` (docs/rules/ocpi.md "Console"). */
const v = (key: string) => `ocpi.validation.${key}`;

const optionalText = (max: number, key: string) =>
  z.preprocess((x) => (typeof x === "string" && x.trim() === "" ? undefined : x), z.string({ error: v(key) }).trim().max(max, { error: v(key) }).optional());

/**
 * A partner platform: a name, and for a registration started by us the partner's versions URL and
 * its token A (docs/rules/ocpi.md "Tokens and registration"). An empty token keeps the stored one.
 */
export const platformInput = z.strictObject({
  name: z.string({ error: "formsHelp.validation.name" }).trim().min(1, { error: "formsHelp.validation.name" }).max(64, { error: v("name") }),
  versionsUrl: z.preprocess(
    (x) => (typeof x === "string" && x.trim() === "" ? undefined : x),
    z.url({ protocol: /^https?$/, error: v("versionsUrl") }).max(255, { error: v("versionsUrl") }).optional(),
  ),
  token: optionalText(64, "token"),
  /** The partner's role (docs/rules/ocpi.md "CPO role"): left out, a new platform is a CPO and an edited one keeps its role. */
  role: z.enum(PARTNER_ROLES, { error: "ocpi.cpo.validation.role" }).optional(),
});
export type PlatformInput = z.infer<typeof platformInput>;

const isoInstant = z.iso.datetime({ offset: true });
/**
 * An instant with its offset, or the operator's wall-clock time or day as the date-range picker
 * writes it (docs/rules/lists.md "Filters and sorting").
 */
export const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const LOCAL_DAY = /^\d{4}-\d{2}-\d{2}$/;
const instant = z.string({ error: v("dateTime") }).refine((s) => WALL_CLOCK.test(s) || LOCAL_DAY.test(s) || isoInstant.safeParse(s).success, { error: v("dateTime") });
const filter = z.string().trim().max(64, { error: v("filter") }).optional();

/** What partners sent, paged, by partner, by text and by time (docs/rules/lists.md). */
export const ocpiListQuery = pageQuery
  .extend({
    platformId: z.preprocess((x) => (x === "" ? undefined : x), recordId(v("platform")).optional()),
    q: filter,
    status: filter,
    from: instant.optional(),
    to: instant.optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { error: v("timeRange"), path: ["to"] });
export type OcpiListQuery = z.infer<typeof ocpiListQuery>;
