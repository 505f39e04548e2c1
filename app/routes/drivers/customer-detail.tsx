import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { DetailHeader } from "~/components/page-actions";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { DiscountCardsSection } from "../finance/discount-cards-section";
import { BindBadge, CardStatusBadge, CustomerStatusBadge } from "./badges";
import { CustomerHistory } from "./customer-history";
import { loadCustomerDetail } from "./customers.server";
import { MembershipCard } from "../wallets/membership-card";
import { loadCustomerWallet, memberLevelAction } from "../wallets/wallets.server";
import { genderLabel } from "./gender";

/**
 * A customer (docs/rules/drivers.md "Customer detail"): profile, balance and who pays, group,
 * cards, where it may charge, and its newest vehicles, charging sessions and expense records.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadCustomerWallet(args, loadCustomerDetail);
}

/** The membership control's change of level (docs/rules/wallets.md "Membership"). */
export function action(args: ActionFunctionArgs) {
  return memberLevelAction(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.customer.name };

export default function CustomerDetail() {
  const { customer, group, paysFrom, cards, chargePoints, membershipFees, vehicles, sessions, expenses } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, dateTime } = useFormat();
  const dash = (value: string | null) => value ?? "—";
  return (
    <div className="flex flex-col gap-4">
      <DetailHeader
        title={customer.name}
        description={t("drivers.customers.detail")}
        backTo="/userManagement/userProfileManagement"
        editTo={`/userManagement/userProfileManagement/customerEdit/${customer.id}`}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("drivers.customers.sections.profile")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList
            items={[
              [t("drivers.customers.fields.email"), customer.email],
              [t("drivers.customers.fields.phone"), dash(customer.phone)],
              [t("drivers.customers.fields.gender"), genderLabel(t, customer.gender)],
              [t("common.status"), <CustomerStatusBadge key="status" status={customer.status} />],
              [t("drivers.customers.fields.memberLevel"), t(`drivers.customers.levels.${customer.memberLevel}`)],
              [t("drivers.customers.fields.cpf"), dash(customer.cpf)],
              [t("drivers.customers.fields.idCard"), dash(customer.idCard)],
              [
                t("drivers.customers.sections.address"),
                [customer.street, customer.houseNumber, customer.complement, customer.zipCode, customer.district, customer.city, customer.state, customer.country].filter(Boolean).join(", "),
              ],
              [t("drivers.customers.fields.evModel"), customer.evModel],
              [t("drivers.customers.sections.vehicle"), [customer.carBrand, customer.carModel, customer.carPlate].filter(Boolean).join(" · ") || "—"],
              [t("common.createdAt"), dateTime(customer.createdAt)],
            ]}
          />
        </CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("drivers.customers.sections.balance")}</CardTitle>
          </CardHeader>
          <CardContent>
            <DetailList
              items={[
                [t("drivers.customers.fields.balance"), <span key="balance" className="tabular-nums">{money(customer.balance)}</span>],
                [t("drivers.customers.fields.overdraftCredit"), money(customer.overdraftCredit)],
                [t("drivers.customers.fields.payWay"), t(`drivers.customers.payWays.${customer.payWay}`)],
                [t("drivers.customers.paysFrom"), `${paysFrom.name} · ${money(paysFrom.balance)}`],
              ]}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("drivers.customers.sections.group")}</CardTitle>
          </CardHeader>
          <CardContent>
            {group ? (
              <DetailList
                items={[
                  [
                    t("drivers.groups.fields.name"),
                    <Link key="group" className="text-primary hover:underline" to={`/userManagement/userGroupManagement/groupDetail/${group.id}`}>
                      {group.name}
                    </Link>,
                  ],
                  [t("drivers.groups.fields.code"), <span key="code" className="font-mono">{group.code}</span>],
                  [t("drivers.groups.fields.leader"), group.leader?.name ?? "—"],
                ]}
              />
            ) : (
              <p className="text-sm text-muted-foreground">{t("drivers.customers.noGroup")}</p>
            )}
          </CardContent>
        </Card>
      </div>
      <MembershipCard customer={customer} fees={membershipFees} />
      <Card>
        <CardHeader>
          <CardTitle>{t("drivers.customers.sections.cards")}</CardTitle>
          <CardDescription>
            <Link className="text-primary hover:underline" to={`/user/rf-card?owner=${encodeURIComponent(customer.email)}`}>
              {t("drivers.customers.manageCards")}
            </Link>
          </CardDescription>
        </CardHeader>
        <CardContent>
          {cards.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("drivers.customers.noCards")}</p>
          ) : (
            <div className="overflow-x-auto">
              <Table aria-label={t("drivers.customers.sections.cards")}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("drivers.cards.fields.idTag")}</TableHead>
                    <TableHead>{t("drivers.cards.fields.cardName")}</TableHead>
                    <TableHead>{t("common.status")}</TableHead>
                    <TableHead>{t("drivers.cards.fields.bindStatus")}</TableHead>
                    <TableHead>{t("drivers.cards.fields.expiryDate")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {cards.map((c) => (
                    <TableRow key={c.id}>
                      <TableCell>
                        <span className="font-mono">{c.idTag}</span>
                        {c.replacesIdTag && <span className="block text-xs text-muted-foreground">{t("drivers.cards.replaces", { idTag: c.replacesIdTag })}</span>}
                        {c.replacedByIdTag && <span className="block text-xs text-muted-foreground">{t("drivers.cards.replacedBy", { idTag: c.replacedByIdTag })}</span>}
                      </TableCell>
                      <TableCell>{dash(c.cardName)}</TableCell>
                      <TableCell>
                        <CardStatusBadge status={c.status} />
                      </TableCell>
                      <TableCell>
                        <BindBadge status={c.bindStatus} />
                      </TableCell>
                      <TableCell>{dateTime(c.expiryDate) || "—"}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("drivers.customers.fields.chargePointList")}</CardTitle>
        </CardHeader>
        <CardContent>
          {customer.chargeAllPoint ? (
            <p className="text-sm">{t("drivers.customers.everywhere")}</p>
          ) : (
            <ul className="flex flex-wrap gap-2 text-sm">
              {chargePoints.map((p) => (
                <li key={p.id} className="rounded-md border px-2 py-1 font-mono">
                  {p.serialNumber} · {p.name}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <DiscountCardsSection customerId={customer.id} />
      <CustomerHistory vehicles={vehicles} sessions={sessions} expenses={expenses} />
    </div>
  );
}
