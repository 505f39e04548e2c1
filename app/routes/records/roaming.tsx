import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { CdrBillingStatus } from "../../../domain/ocpi/cdr-price";
import type { ChargeRecord } from "../../../workers/services/charge-records/charge-records";

/**
 * Roaming charge records in the console (docs/rules/ocpi.md "CDRs billed to the wallet"): a
 * partner's CDR billed to one of our drivers, marked as such on the list, the page and the
 * receipt, with the partner's own cost lines.
 */
type Roaming = NonNullable<ChargeRecord["roaming"]>;

/** The mark beside a roaming record's number in the list. */
export function RoamingBadge() {
  const { t } = useTranslation();
  return <Badge variant="outline">{t("roaming.badge")}</Badge>;
}

/** Who charged the driver: the partner and its party. */
export const partnerOf = (r: Pick<Roaming, "platformName" | "countryCode" | "partyId">) => `${r.platformName} · ${r.countryCode}*${r.partyId}`;

/** The partner's cost lines, without and with VAT, the total last. */
export function PartnerCostLines({ roaming }: { roaming: Pick<Roaming, "costLines" | "vatIncluded"> }) {
  const { t } = useTranslation();
  const { money } = useFormat();
  const amount = (minor: number | null) => (minor === null ? "—" : money(minor));
  return (
    <div className="flex flex-col gap-2">
      <table className="w-full text-sm" data-testid="partner-cost-lines">
        <thead>
          <tr className="text-muted-foreground">
            <th scope="col" className="py-1 text-left font-normal">
              {t("roaming.costLines")}
            </th>
            <th scope="col" className="py-1 text-right font-normal">
              {t("roaming.exclVat")}
            </th>
            <th scope="col" className="py-1 text-right font-normal">
              {t("roaming.inclVat")}
            </th>
          </tr>
        </thead>
        <tbody>
          {roaming.costLines.map((line) => (
            <tr key={line.kind} className={line.kind === "TOTAL" ? "border-t font-semibold" : undefined}>
              <th scope="row" className="py-1.5 text-left font-normal">
                {t(`roaming.cost.${line.kind}`)}
              </th>
              <td className="py-1.5 text-right tabular-nums">{amount(line.exclVat)}</td>
              <td className="py-1.5 text-right tabular-nums">{amount(line.inclVat)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-xs text-muted-foreground">{t(roaming.vatIncluded ? "roaming.vatIncluded" : "roaming.vatNotGiven")}</p>
    </div>
  );
}

/** The roaming card of a record's page: the partner, its CDR and session, the place, its cost lines. */
export function RoamingCard({ roaming }: { roaming: Roaming }) {
  const { t } = useTranslation();
  const items: [string, ReactNode][] = [
    [t("roaming.partner"), partnerOf(roaming)],
    [t("roaming.cdr"), <span className="font-mono break-all">{roaming.cdrId}</span>],
    [t("roaming.session"), <span className="font-mono break-all">{roaming.sessionId ?? "—"}</span>],
    [t("roaming.location"), `${roaming.address}, ${roaming.city}`],
    [t("roaming.evse"), <span className="font-mono break-all">{roaming.evseId}</span>],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {t("roaming.title")}
          <RoamingBadge />
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <DetailList items={items} />
        <PartnerCostLines roaming={roaming} />
      </CardContent>
    </Card>
  );
}

/** What billing made of a CDR, in the CDR list, with a link to the record it became. */
export function CdrBilling({ status, recordId }: { status: CdrBillingStatus; recordId: number | null }) {
  const { t } = useTranslation();
  const flagged = status === "UNKNOWN_TOKEN" || status === "CURRENCY_MISMATCH" || status === "CREDIT" || status === "HELD";
  const badge = <Badge variant={status === "BILLED" || status === "CREDITED" ? "success" : flagged ? "warning" : "muted"}>{t(`roaming.billing.${status}`)}</Badge>;
  return recordId === null ? (
    badge
  ) : (
    <Link to={`/financialManagement/chargeRecord/chargeRecordDetail/${recordId}`} className="inline-flex items-center gap-1 underline">
      {badge}
      <span className="sr-only">{t("roaming.record")}</span>
    </Link>
  );
}
