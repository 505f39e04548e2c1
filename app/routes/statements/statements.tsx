import { useTranslation } from "react-i18next";
import { useLoaderData, useLocation, type LoaderFunctionArgs } from "react-router";
import { StatementView } from "./statement-view";
import { loadStatement } from "./statements.server";

/**
 * Finance › Financial statements: energy, revenue by cost line, sessions and the average session
 * of a period, by station, point, local day or month, charted, tabled and exported to xlsx
 * (docs/rules/statements.md). A sub-operator's own statements (`/suboperators/finance/financialStatements`)
 * are the same screen over its devices.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadStatement(args);
}

export default function FinancialStatements() {
  const { stations, ...page } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const title = pathname.startsWith("/suboperators/") ? t("menu.sub.finance.financialStatements") : t("menu.finance.financialStatements");
  return <StatementView page={page} stations={stations} title={title} />;
}
