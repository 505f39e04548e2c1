import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ChargeRecord } from "../../../workers/services/charge-records/charge-records";
import type { Vehicle } from "../../../workers/services/driver-services/vehicles";
import type { Bill } from "../../../workers/services/wallets/bills";
import { useFormat } from "~/components/format";
import { RecordStatusBadge } from "~/components/records/record-status";
import { RecentRowsCard } from "~/components/recent-rows-card";
import { TableCell, TableHead, TableRow } from "~/components/ui/table";
import { BillStatusBadge } from "../wallets/bill-parts";

/** The customer's newest rows of a list, and the full list filtered by the customer when the user may open it. */
export interface Section<T> {
  records: T[];
  total: number;
  all: string | null;
}

/** One section, with the link to the whole list when the user may open it. */
function HistoryCard({ title, section, empty, head, children }: { title: string; section: Section<unknown>; empty: string; head: ReactNode; children: ReactNode[] }) {
  const { t } = useTranslation();
  const action = section.all && (
    <Link className="text-sm text-primary hover:underline" to={section.all}>
      {t("drivers.customers.seeAll", { total: section.total })}
    </Link>
  );
  return <RecentRowsCard title={title} action={action} empty={empty} head={head} rows={children} />;
}

/**
 * The customer's vehicles, charging sessions and expense records (docs/rules/drivers.md "Customer
 * detail"): the ten newest of each, read by the lists' own verbs; a section the user's role does
 * not admit is left out.
 */
export function CustomerHistory({ vehicles, sessions, expenses }: { vehicles: Section<Vehicle> | null; sessions: Section<ChargeRecord> | null; expenses: Section<Bill> | null }) {
  const { t } = useTranslation();
  const { money, dateTime, energy } = useFormat();
  return (
    <>
      {vehicles && (
        <HistoryCard
          title={t("drivers.customers.sections.vehicles")}
          section={vehicles}
          empty={t("drivers.customers.noVehicles")}
          head={
            <>
              <TableHead>{t("driverServices.vehicles.name")}</TableHead>
              <TableHead>{t("driverServices.vehicles.plate")}</TableHead>
              <TableHead>{t("driverServices.vehicles.brandModel")}</TableHead>
              <TableHead>{t("driverServices.vehicles.default")}</TableHead>
            </>
          }
        >
          {vehicles.records.map((v) => (
            <TableRow key={v.id}>
              <TableCell>{v.name}</TableCell>
              <TableCell className="font-mono">{v.plate}</TableCell>
              <TableCell>{[v.brand, v.model].filter(Boolean).join(" ") || "—"}</TableCell>
              <TableCell>{v.default ? t("driverServices.common.yes") : t("driverServices.common.no")}</TableCell>
            </TableRow>
          ))}
        </HistoryCard>
      )}
      {sessions && (
        <HistoryCard
          title={t("drivers.customers.sections.sessions")}
          section={sessions}
          empty={t("drivers.customers.noSessions")}
          head={
            <>
              <TableHead>{t("records.fields.transactionId")}</TableHead>
              <TableHead>{t("records.fields.point")}</TableHead>
              <TableHead>{t("records.fields.idTag")}</TableHead>
              <TableHead>{t("records.fields.startAt")}</TableHead>
              <TableHead className="text-right">{t("records.fields.energy")}</TableHead>
              <TableHead className="text-right">{t("records.fields.totalCost")}</TableHead>
              <TableHead>{t("records.fields.status")}</TableHead>
            </>
          }
        >
          {sessions.records.map((r) => (
            <TableRow key={r.id}>
              <TableCell className="font-mono">
                {/* The record's page is open to whoever may open the records list. */}
                {sessions.all ? (
                  <Link className="text-primary hover:underline" to={`/financialManagement/chargeRecord/chargeRecordDetail/${r.id}`}>
                    #{r.id}
                  </Link>
                ) : (
                  `#${r.id}`
                )}
              </TableCell>
              <TableCell className="font-mono text-xs">{r.serialNumber ? `${r.serialNumber} · ${r.connectorId}` : (r.stationName ?? "—")}</TableCell>
              <TableCell className="font-mono text-xs">{r.idTag}</TableCell>
              <TableCell>{dateTime(r.startAt)}</TableCell>
              <TableCell className="text-right tabular-nums">{r.energyWh === null ? "—" : energy(r.energyWh)}</TableCell>
              <TableCell className="text-right tabular-nums">{r.totalCost === null ? t("records.fields.notPriced") : money(r.totalCost)}</TableCell>
              <TableCell>
                <RecordStatusBadge status={r.status} />
              </TableCell>
            </TableRow>
          ))}
        </HistoryCard>
      )}
      {expenses && (
        <HistoryCard
          title={t("drivers.customers.sections.expenses")}
          section={expenses}
          empty={t("drivers.customers.noExpenses")}
          head={
            <>
              <TableHead>{t("wallets.bills.fields.createdAt")}</TableHead>
              <TableHead>{t("wallets.bills.fields.type")}</TableHead>
              <TableHead className="text-right">{t("wallets.bills.fields.cost")}</TableHead>
              <TableHead className="text-right">{t("wallets.bills.fields.balanceAfter")}</TableHead>
              <TableHead>{t("wallets.bills.fields.status")}</TableHead>
            </>
          }
        >
          {expenses.records.map((b) => (
            <TableRow key={b.id}>
              <TableCell>{dateTime(b.createdAt)}</TableCell>
              <TableCell>{t(`wallets.bills.types.${b.type}`)}</TableCell>
              <TableCell className="text-right tabular-nums">{money(b.cost)}</TableCell>
              <TableCell className="text-right tabular-nums">{money(b.balanceAfter)}</TableCell>
              <TableCell>
                <BillStatusBadge status={b.status} />
              </TableCell>
            </TableRow>
          ))}
        </HistoryCard>
      )}
    </>
  );
}
