import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormatProvider, useFormat } from "~/components/format";
import type { Receipt } from "../../../workers/services/charge-records/receipts";
import { PartnerCostLines, partnerOf } from "./roaming";

/**
 * A charging receipt (docs/rules/records.md "Receipts"): every field of a charging receipt, money
 * in the operator's currency format, dates in its time zone, words in the reader's language. The
 * same view serves the record's page and the public pages, and prints on one sheet.
 */
export function ReceiptView({ receipt }: { receipt: Receipt }) {
  return (
    <FormatProvider currency={receipt.format.currency} timeZone={receipt.format.timeZone} decimalSeparator={receipt.format.decimalSeparator}>
      <ReceiptBody receipt={receipt} />
    </FormatProvider>
  );
}

function Section({ rows }: { rows: [label: string, value: ReactNode, strong?: boolean][] }) {
  return (
    <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1.5 border-t py-3 text-sm first:border-t-0 print:py-2">
      {rows.map(([label, value, strong]) => (
        <div key={label} className="contents">
          <dt className={strong ? "font-semibold" : "text-muted-foreground print:text-black"}>{label}</dt>
          <dd className={`text-right tabular-nums ${strong ? "font-semibold" : ""}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ReceiptBody({ receipt: r }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const { dateTime, energy, duration, money } = useFormat();
  const amount = (minor: number | null) => (minor === null ? "—" : money(minor));
  const when = (at: string | null) => (at ? dateTime(at) : "—");
  return (
    <div data-testid="receipt" className="flex flex-col">
      {!r.priced && <p className="mb-2 rounded-md bg-muted px-3 py-2 text-sm print:border">{t("records.receipt.notPriced")}</p>}
      <Section
        rows={[
          [t("records.receipt.account"), <span className="font-mono">{r.account}</span>],
          [t("records.receipt.paidBy"), r.paidBy ?? "—"],
          [t("records.receipt.txId"), <span className="font-mono">{r.transactionId ?? "—"}</span>],
          ...(r.roaming
            ? ([
                [t("roaming.partner"), partnerOf(r.roaming)],
                [t("roaming.cdr"), <span className="font-mono break-all">{r.roaming.cdrId}</span>],
              ] as [string, ReactNode][])
            : []),
          [t("records.receipt.date"), when(r.date)],
          [t("records.receipt.station"), r.roaming ? (r.station ?? "—") : `${r.station ?? "—"} · ${r.connectorId}`],
          [t("records.receipt.location"), r.location ?? "—"],
          [t("records.receipt.address"), r.address || "—"],
        ]}
      />
      <Section
        rows={[
          [t("records.receipt.startTime"), when(r.startAt)],
          [t("records.receipt.stopTime"), when(r.stopAt)],
          [t("records.receipt.unplugTime"), when(r.unplugAt)],
          [t("records.receipt.reservationStart"), when(r.reservationStartAt)],
          [t("records.receipt.reservationEnd"), when(r.reservationEndAt)],
          [t("records.receipt.duration"), r.chargingTime === null ? "—" : duration(r.chargingTime)],
          [t("records.receipt.energy"), r.energyWh === null ? "—" : energy(r.energyWh)],
        ]}
      />
      <Section
        rows={[
          // The operator may hide its energy price (docs/rules/settings.md "Display switches").
          ...(r.energyPriceHidden ? [] : ([[t("records.receipt.energyFee"), amount(r.energyFee)]] as [string, ReactNode][])),
          [t("records.receipt.serviceFee"), amount(r.serviceFee)],
          [`${t("records.receipt.parkingFees")} · ${t("records.receipt.parkingInCharging")}`, amount(r.parkingInCharging)],
          [`${t("records.receipt.parkingFees")} · ${t("records.receipt.parkingReservation")}`, amount(r.parkingReservation)],
          [`${t("records.receipt.parkingFees")} · ${t("records.receipt.parkingPostCharging")}`, amount(r.parkingPostCharging)],
          [t("records.receipt.cost"), amount(r.cost)],
          [t("records.receipt.discount"), amount(r.discount)],
          ...r.discountLines.map(({ source, amount: taken }): [string, ReactNode] => [
            `${t("records.receipt.discount")} · ${t(`discounts.receipt.${source}`)}`,
            <span data-testid={`discount-${source}`}>−{amount(taken)}</span>,
          ]),
          [t("records.receipt.netCost"), amount(r.netCost)],
          [t("records.receipt.tax"), amount(r.tax)],
          [t("records.receipt.grossCost"), amount(r.grossCost)],
          [t("records.receipt.amountDue"), <span data-testid="amount-due">{amount(r.amountDue)}</span>, true],
        ]}
      />
      {r.roaming && (
        <div className="border-t py-3">
          <PartnerCostLines roaming={r.roaming} />
        </div>
      )}
      <p className="pt-2 text-xs text-muted-foreground print:text-black">{t("records.receipt.issuedBy", { name: r.operatorName })}</p>
    </div>
  );
}
