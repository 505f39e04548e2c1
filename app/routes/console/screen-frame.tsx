import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Outlet, useLocation, useRouteError, useRouteLoaderData } from "react-router";
import { firstLeafUrl } from "../../../tenants/permissions";
import { DocumentTitle } from "~/components/shell/document-title";
import { screenAt, screenTitleKey } from "~/components/shell/screen-place";
import { StatusPage } from "~/components/shell/status-page";
import type { loader as layoutLoader } from "./layout";

function useShell() {
  return useRouteLoaderData<typeof layoutLoader>("routes/console/layout");
}

/**
 * Every console screen sits in this frame, inside the shell: it titles the document after the
 * screen ("screen — operator", from the menu catalogue, so no screen can forget it), and its
 * error boundary shows a screen's 404, 403 or failure in place of the screen while the sidebar
 * and header stay (docs/rules/console.md).
 */
export default function ScreenFrame() {
  const shell = useShell();
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const place = shell ? screenAt(shell.menu, pathname) : undefined;
  return (
    <>
      {shell && place && <DocumentTitle screen={t(screenTitleKey(place))} owner={shell.operator.name} />}
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const shell = useShell();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return <StatusPage status={status} home={(shell && firstLeafUrl(shell.menu)) ?? "/"} owner={shell?.operator.name} className="min-h-[60vh]" />;
}
