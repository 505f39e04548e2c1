import { operationLogQuery } from "../../../domain/schemas/content";
import { getOperationLog, listOperationLogs } from "../../services/content/operation-log";
import { idParam, route } from "../app";

/** Content of the system service (docs/rules/content.md): the operation log. */
const tag = "System service: content";

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
);
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
);
