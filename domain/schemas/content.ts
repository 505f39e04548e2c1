import { z } from "zod";
import { LANGUAGES } from "../languages";
import { pageQuery } from "./account-service";

/** Queries and bodies of the content screens: operation log, disclaimer, privacy policy, feedback. */

export const OPERATION_TYPES = ["CREATE", "UPDATE", "DELETE", "LOGIN", "LOGOUT"] as const;

const instant = z.iso.datetime({ offset: true, error: "content.validation.dateTime" });
const text64 = z.string().trim().max(64, { error: "content.validation.filterLength" }).optional();

/** The operation log's filters (docs/rules/content.md "Operation log"). */
export const operationLogQuery = pageQuery
  .extend({
    module: text64,
    account: text64,
    tableName: text64,
    operationType: z.enum(OPERATION_TYPES, { error: "content.validation.operationType" }).optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  // The start time must not be later than the end time.
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { error: "content.validation.timeRange", path: ["to"] });

/** The language a text is written in: one of the six (docs/rules/content.md "Disclaimer and privacy policy"). */
export const textLanguage = z.enum(LANGUAGES, { error: "content.validation.language" });

export const contentTextQuery = z.object({ lang: textLanguage.optional() });

/** A disclaimer or privacy policy: text required, at most 100 000 characters. */
export const contentTextInput = z.object({
  content: z
    .string({ error: "content.validation.contentRequired" })
    .trim()
    .min(1, { error: "content.validation.contentRequired" })
    .max(100_000, { error: "content.validation.contentLength" }),
});

export const TEXT_KINDS = ["DISCLAIMER", "PRIVACY_POLICY"] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

/** The public mobile pages: the operator by domain or code, the language by `lang`. */
export const publicTextQuery = z.object({
  operatorCode: z.string().trim().min(1).max(32).optional(),
  lang: z.string().optional(),
});

/** Feedback: UNPROCESSED → PROCESSED with a reply (docs/rules/content.md "Feedback"). */
export const FEEDBACK_STATUSES = ["UNPROCESSED", "PROCESSED"] as const;

export const feedbackListQuery = pageQuery.extend({
  status: z.enum(FEEDBACK_STATUSES, { error: "content.validation.feedbackStatus" }).optional(),
  creator: text64,
});

export const feedbackReplyInput = z.object({
  reply: z
    .string({ error: "content.validation.replyRequired" })
    .trim()
    .min(1, { error: "content.validation.replyRequired" })
    .max(2000, { error: "content.validation.replyLength" }),
});

/**
 * What a driver sends from a charger's page or a receipt (POST /public-service/feedback;
 * docs/rules/content.md "Feedback"): about one charger (its serial number) or one session (its
 * receipt token), the text, and how to answer if the driver wants an answer.
 */
export const publicFeedbackInput = z
  .strictObject({
    serialNumber: z.string({ error: "content.validation.feedbackAbout" }).trim().min(1, { error: "content.validation.feedbackAbout" }).max(64, { error: "content.validation.feedbackAbout" }).optional(),
    receiptToken: z.string({ error: "content.validation.feedbackAbout" }).trim().min(1, { error: "content.validation.feedbackAbout" }).max(64, { error: "content.validation.feedbackAbout" }).optional(),
    content: z
      .string({ error: "content.validation.feedbackRequired" })
      .trim()
      .min(1, { error: "content.validation.feedbackRequired" })
      .max(1000, { error: "content.validation.feedbackLength" }),
    contact: z.string({ error: "content.validation.contactLength" }).trim().max(100, { error: "content.validation.contactLength" }).optional(),
  })
  .refine((f) => (f.serialNumber === undefined) !== (f.receiptToken === undefined), { error: "content.validation.feedbackAbout", path: ["serialNumber"] });
export type PublicFeedbackInput = z.infer<typeof publicFeedbackInput>;
