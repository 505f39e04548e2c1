import { contentTextInput, contentTextQuery, feedbackListQuery, feedbackReplyInput, operationLogQuery } from "../../../domain/schemas/content";
import { getFeedback, listFeedback, replyFeedback } from "../../services/content/feedback";
import { getOperationLog, listOperationLogs } from "../../services/content/operation-log";
import { getDisclaimer, getPrivacyPolicy, updateDisclaimer, updatePrivacyPolicy } from "../../services/content/texts";
import { route } from "../app";
import { resource } from "../resource";

/** Content of the system service (docs/rules/content.md): the operation log, the disclaimer, the privacy policy and feedback. */
const tag = "System service: content";
const operationLog = resource(tag, "/system-service/operation-log");
const feedback = resource(tag, "/system-service/feedback");

export const routes = [
  operationLog.list("The operation log, newest first (module, account, tableName, operationType, from, to)", listOperationLogs, operationLogQuery),
  operationLog.detail("One operation-log row: old and new data, request body and response (secrets redacted)", getOperationLog),
];

export const textRoutes = (
  [
    ["/system-service/disclaimer", "disclaimer", getDisclaimer, updateDisclaimer],
    ["/system-service/privacy-policy", "privacy policy", getPrivacyPolicy, updatePrivacyPolicy],
  ] as const
).flatMap(([path, name, get, put]) => [
  route({ method: "get", path, summary: `The ${name} in one language (lang; empty content when none is written)`, tag, verb: get, query: contentTextQuery }, (ctx, { query }) =>
    get(ctx, query),
  ),
  route(
    { method: "put", path, summary: `Write the ${name} of one language (lang): { content }, text required`, tag, verb: put, query: contentTextQuery, body: contentTextInput },
    (ctx, { query, body }) => put(ctx, query, body),
  ),
]);

export const feedbackRoutes = [
  feedback.list("Feedback, newest first (status, creator)", listFeedback, feedbackListQuery),
  feedback.detail("One feedback", getFeedback),
  feedback.put("/{id}/reply", "Reply to an unprocessed feedback: { reply }; it becomes PROCESSED (409 when already processed)", replyFeedback, feedbackReplyInput),
];
