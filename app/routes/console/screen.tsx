import { useTranslation } from "react-i18next";
import { useLocation, useRouteLoaderData } from "react-router";
import { entryForPath } from "../../../tenants/permissions";
import { ComingSoon } from "~/components/shell/coming-soon";
import { PageHeader } from "~/components/shell/page-header";
import type { loader as layoutLoader } from "./layout";

/**
 * A screen of the menu whose issue has not landed yet: its title, breadcrumb and a note of
 * what it will do. The layout's guard has already checked the permission.
 */
export default function Screen() {
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/console/layout");
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const entry = layout ? entryForPath(layout.menu, pathname) : undefined;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={entry ? t(entry.titleKey) : ""} />
      <ComingSoon />
    </div>
  );
}
