import { useTranslation } from "react-i18next";
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PackageBills } from "./package-bills";
import { billFlagsAction, loadPackage } from "./packages.server";

/** Platform › Price packages › one package and its bills, with their recorded and settled flags. */
export function loader(args: LoaderFunctionArgs) {
  return loadPackage(args);
}

export function action(args: ActionFunctionArgs) {
  return billFlagsAction(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => `${data.package.operatorCode} · ${data.package.type}` };

export default function PackageDetail() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return <PackageBills pkg={data.package} bills={data.bills} editable title={t("packages.detail")} />;
}
