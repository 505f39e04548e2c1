import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenantColumns, timestamps } from "./tenancy";

/** The operation log: one row per mutation (docs/architecture.md "One door"). */
export const operationLogs = sqliteTable(
  "operation_logs",
  {
    ...tenantColumns(),
    operatorCode: text("operator_code").notNull(),
    tableName: text("table_name").notNull(),
    module: text("module").notNull(),
    operationType: text("operation_type", { enum: ["CREATE", "UPDATE", "DELETE", "LOGIN", "LOGOUT"] }).notNull(),
    account: text("account"),
    email: text("email"),
    oldData: text("old_data"),
    newData: text("new_data"),
    url: text("url"),
    requestBody: text("request_body"),
    responseData: text("response_data"),
    ip: text("ip"),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    // Operation log list of one operator, newest first.
    index("operation_logs_operator_created_idx").on(t.operatorId, t.createdAt),
  ],
);
