import { alarmListQuery, disposeInput } from "../../../domain/schemas/monitoring";
import { disposeAlarm, listAlarms } from "../../services/alarms/alarms";
import { resource } from "../resource";

/** Alarms: listed for operators and sub-operators, closed by hand with a comment. */
const alarm = resource("Alarms", "/station-service/alarm");

export const routes = [
  alarm.list("Alarms, newest first (status, level, pointId, serialNumber, type, from, to)", listAlarms, alarmListQuery),
  alarm.put("/{id}/dispose", "Dispose of an undisposed alarm with a comment (ManualDisposed)", disposeAlarm, disposeInput),
];
