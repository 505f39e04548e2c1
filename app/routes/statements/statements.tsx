import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { StatementView } from "./statement-view";
import { loadStatement } from "./statements.server";

/**
 * Finance › Financial statements: energy, revenue by cost line, sessions and the average session
 * of a period, by station, point, local day or month, charted, tabled and exported to xlsx
 * (docs/rules/statements.md).
 */
export function loader(args: LoaderFunctionArgs) {
  return loadStatement(args);
}

export default function FinancialStatements() {
  const { stations, ...page } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return <StatementView page={page} stations={stations} title={t("menu.finance.financialStatements")} />;
}
