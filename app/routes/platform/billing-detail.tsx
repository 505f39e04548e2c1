import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PackageBills } from "./package-bills";
import { loadOwnBilling } from "./packages.server";

/** Carrier system › Operator info › authorizationBillingDetail: one of the operator's own packages and its bills. */
export function loader(args: LoaderFunctionArgs) {
  return loadOwnBilling(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.package.beginAt.slice(0, 10) };

export default function BillingDetail() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return <PackageBills pkg={data.package} bills={data.bills} editable={false} title={t("carrierInfo.billingTitle")} />;
}
