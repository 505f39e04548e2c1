import { contentTextInput, contentTextQuery, feedbackListQuery, feedbackReplyInput, operationLogQuery } from "../../../domain/schemas/content";
import { getFeedback, listFeedback, replyFeedback } from "../../services/content/feedback";
import { getOperationLog, listOperationLogs } from "../../services/content/operation-log";
import { getDisclaimer, getPrivacyPolicy, updateDisclaimer, updatePrivacyPolicy } from "../../services/content/texts";
import { idParam, route } from "../app";

/** Content of the system service (docs/rules/content.md): the operation log, the disclaimer, the privacy policy and feedback. */
const tag = "System service: content";

export const routes = [
  route(
    {
      method: "get",
      path: "/system-service/operation-log",
      summary: "The operation log, newest first (module, account, tableName, operationType, from, to)",
      tag,
      verb: listOperationLogs,
      query: operationLogQuery,
    },
    (ctx, { query }) => listOperationLogs(ctx, query),
  ),
  route(
    {
      method: "get",
      path: "/system-service/operation-log/{id}",
      summary: "One operation-log row: old and new data, request body and response (secrets redacted)",
      tag,
      verb: getOperationLog,
      params: idParam,
    },
    (ctx, { params }) => getOperationLog(ctx, params.id),
  ),
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
  route(
    { method: "get", path: "/system-service/feedback", summary: "Feedback, newest first (status, creator)", tag, verb: listFeedback, query: feedbackListQuery },
    (ctx, { query }) => listFeedback(ctx, query),
  ),
  route({ method: "get", path: "/system-service/feedback/{id}", summary: "One feedback", tag, verb: getFeedback, params: idParam }, (ctx, { params }) =>
    getFeedback(ctx, params.id),
  ),
  route(
    {
      method: "put",
      path: "/system-service/feedback/{id}/reply",
      summary: "Reply to an unprocessed feedback: { reply }; it becomes PROCESSED (409 when already processed)",
      tag,
      verb: replyFeedback,
      params: idParam,
      body: feedbackReplyInput,
    },
    (ctx, { params, body }) => replyFeedback(ctx, params.id, body),
  ),
];
