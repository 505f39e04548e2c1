import type { TFunction } from "i18next";
import type { ApiClient } from "~/lib/api";
import { datedFileName, saveSheet } from "~/lib/excel";
import type { ChargeRecord } from "../../../workers/services/charge-records/charge-records";

/** The most rows one export writes (a thousand pages of 100). */
export const EXPORT_LIMIT = 100_000;
const PAGE = 100;

const COLUMNS = [
  ["transactionId", "records.fields.transactionId", 14],
  ["stationName", "records.fields.station", 24],
  ["serialNumber", "records.fields.point", 18],
  ["connectorId", "records.fields.connector", 10],
  ["idTag", "records.fields.idTag", 16],
  ["startAt", "records.fields.startAt", 24],
  ["stopAt", "records.fields.stopAt", 24],
  ["energyWh", "records.fields.energy", 12],
  ["chargingTime", "records.fields.duration", 12],
  ["currency", "records.fields.currency", 10],
  ["electricCost", "records.cost.electric", 12],
  ["serviceCost", "records.cost.service", 12],
  ["reservationCost", "records.cost.reservation", 12],
  ["occupancyCost", "records.cost.occupancy", 12],
  ["discountCost", "records.cost.discount", 12],
  ["taxCost", "records.cost.tax", 12],
  ["totalCost", "records.cost.total", 12],
  ["status", "records.fields.status", 18],
] as const;

/**
 * Exports the filtered list to xlsx, walking it a page of 100 at a time through the API and
 * reporting progress after each page (docs/rules/records.md "Export"). Money stays in minor units
 * and instants in UTC ISO 8601, as the API answers them, so a spreadsheet sums them exactly.
 * Answers the rows written, or undefined when cancelled.
 */
export async function exportRecords(
  api: ApiClient,
  t: TFunction,
  params: URLSearchParams,
  timeZone: string,
  onProgress: (done: number, total: number) => void,
  cancelled: () => boolean,
): Promise<number | undefined> {
  const filters = new URLSearchParams(params);
  filters.set("size", String(PAGE));
  const rows: ChargeRecord[] = [];
  for (let current = 1; rows.length < EXPORT_LIMIT; current++) {
    if (cancelled()) return undefined;
    filters.set("current", String(current));
    const chunk = await api.get("/station-service/charge/record", { query: filters });
    rows.push(...chunk.records);
    onProgress(rows.length, Math.min(chunk.total, EXPORT_LIMIT));
    if (chunk.records.length < PAGE || rows.length >= chunk.total) break;
  }
  if (rows.length === 0) return 0;
  const data = rows.map((r) => COLUMNS.map(([key]) => (key === "status" ? t(`records.status.${r.status}`) : r[key])));
  await saveSheet([COLUMNS.map(([, label]) => t(label)), ...data], datedFileName(t("menu.finance.chargeRecord"), timeZone), COLUMNS.map(([, , w]) => w));
  return rows.length;
}
