import { alarmListQuery, disposeInput } from "../../../domain/schemas/monitoring";
import { disposeAlarm, listAlarms } from "../../services/alarms/alarms";
import { idParam, route } from "../app";

/** Alarms: listed for operators and sub-operators, closed by hand with a comment. */
const tag = "Alarms";

export const routes = [
  route(
    {
      method: "get",
      path: "/station-service/alarm",
      summary: "Alarms, newest first (status, level, pointId, serialNumber, type, from, to)",
      tag,
      verb: listAlarms,
      query: alarmListQuery,
    },
    (ctx, { query }) => listAlarms(ctx, query),
  ),

  route(
    {
      method: "put",
      path: "/station-service/alarm/{id}/dispose",
      summary: "Dispose of an undisposed alarm with a comment (ManualDisposed)",
      tag,
      verb: disposeAlarm,
      params: idParam,
      body: disposeInput,
    },
    (ctx, { params, body }) => disposeAlarm(ctx, params.id, body),
  ),
];
