import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { COMMAND_RESPONSE_TYPES, COMMAND_RESULT_TYPES, COMMAND_TYPES } from "../../domain/schemas/ocpi/commands";
import { ocpiPlatforms } from "./ocpi";
import { tenantColumns } from "./tenancy";

/**
 * Commands we sent to a partner's commands receiver (docs/rules/ocpi.md "Commands", OCPI 2.2.1
 * §13): what we asked, the CPO's synchronous CommandResponse, and the CommandResult it posts
 * later to the `response_url` that names the command by `uid`.
 */
export const ocpiCommands = sqliteTable(
  "ocpi_commands",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    /** The last segment of our `response_url`: random, so one partner cannot guess another's commands. */
    uid: text("uid").notNull(),
    command: text("command", { enum: COMMAND_TYPES }).notNull(),
    /** The OCPI object we sent (StartSession, StopSession…), `response_url` included. */
    request: text("request", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** What the command is about, for the list's search. */
    locationId: text("location_id"),
    evseUid: text("evse_uid"),
    connectorId: text("connector_id"),
    sessionId: text("session_id"),
    reservationId: text("reservation_id"),
    tokenUid: text("token_uid"),
    /** The CPO's CommandResponse; null while it has not answered, or when the call failed. */
    responseResult: text("response_result", { enum: COMMAND_RESPONSE_TYPES }),
    responseTimeout: integer("response_timeout"),
    responseMessage: text("response_message", { mode: "json" }).$type<{ language: string; text: string }[]>(),
    /** Why the call failed (network, HTTP, envelope or status code), as `callPartner` says. */
    sendError: text("send_error"),
    /** When the result is due: sent + the CPO's `timeout`; past it, the command is TIMEOUT. */
    deadlineAt: integer("deadline_at", { mode: "timestamp_ms" }),
    /** The CPO's CommandResult, or TIMEOUT when we gave up waiting (`timedOut`). */
    result: text("result", { enum: COMMAND_RESULT_TYPES }),
    resultMessage: text("result_message", { mode: "json" }).$type<{ language: string; text: string }[]>(),
    /** When the CPO's result arrived; null when the result is our own TIMEOUT. */
    resultAt: integer("result_at", { mode: "timestamp_ms" }),
    timedOut: integer("timed_out", { mode: "boolean" }).notNull().default(false),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("ocpi_commands_operator_uid_uq").on(t.operatorId, t.uid),
    // The list: one operator's newest first.
    index("ocpi_commands_operator_created_idx").on(t.operatorId, t.createdAt),
    // Commands waiting for their result, by when it is due (the TIMEOUT sweep).
    index("ocpi_commands_operator_deadline_idx").on(t.operatorId, t.deadlineAt),
  ],
);
