import { useEffect, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { PanelLeftClose, PanelLeftOpen } from "lucide-react";
import { FormatProvider } from "~/components/format";
import { Button } from "~/components/ui/button";
import { ConfirmProvider } from "~/components/ui/confirm-dialog";
import { Separator } from "~/components/ui/separator";
import { TooltipProvider, WithTooltip } from "~/components/ui/tooltip";
import { cn } from "~/lib/cn";
import { AccountMenu } from "./account-menu";
import { Breadcrumbs } from "./breadcrumbs";
import { LanguageSwitcher } from "./language-switcher";
import { OperatorBrand } from "./operator-brand";
import { Sidebar } from "./sidebar";
import { ThemeToggle } from "./theme-toggle";
import type { ShellData } from "./types";
import { useMediaQuery } from "./use-media-query";

const SIDEBAR_ID = "console-sidebar";
const MAIN_ID = "console-main";
/** Below this width the sidebar is an icon rail that opens over the page. */
const WIDE_QUERY = "(min-width: 1024px)";

/**
 * The console layout: header (operator, breadcrumbs, language, theme, account), the menu sidebar
 * and the page. It also provides the operator's formatting, confirmations and tooltips to the page.
 */
export function AppShell({ data, children }: { data: ShellData; children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const wide = useMediaQuery(WIDE_QUERY, true);
  const [railOnWide, setRailOnWide] = useState(false);
  const [openOnNarrow, setOpenOnNarrow] = useState(false);

  // Following a link closes the small-screen overlay.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpenOnNarrow(false);
  }

  const overlay = !wide && openOnNarrow;
  const collapsed = wide ? railOnWide : !openOnNarrow;
  const toggleSidebar = () => (wide ? setRailOnWide(!railOnWide) : setOpenOnNarrow(!openOnNarrow));
  const toggleLabel = t(collapsed ? "ui.nav.expand" : "ui.nav.collapse");

  useEffect(() => {
    if (!overlay) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setOpenOnNarrow(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [overlay]);

  return (
    <FormatProvider currency={data.currency} timeZone={data.user.timeZone} decimalSeparator={data.decimalSeparator} money={data.money} mapView={data.mapView}>
      <TooltipProvider>
        <ConfirmProvider>
          <div className="flex min-h-dvh flex-col bg-canvas">
            <a
              href={`#${MAIN_ID}`}
              className="sr-only z-[60] rounded-md bg-primary px-3 py-2 text-sm text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
            >
              {t("ui.nav.skipToContent")}
            </a>
            <header className="sticky top-0 z-40 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-2 backdrop-blur supports-[backdrop-filter]:bg-background/80 sm:px-3">
              <WithTooltip label={toggleLabel}>
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={toggleSidebar}
                  aria-label={toggleLabel}
                  aria-controls={SIDEBAR_ID}
                  aria-expanded={!collapsed}
                >
                  {collapsed ? <PanelLeftOpen aria-hidden /> : <PanelLeftClose aria-hidden />}
                </Button>
              </WithTooltip>
              <OperatorBrand name={data.operator.name} logoUrl={data.operator.logoUrl} className="max-w-56" />
              <Separator orientation="vertical" className="mx-2 hidden data-[orientation=vertical]:h-5 md:block" />
              <Breadcrumbs menu={data.menu} className="hidden md:block" />
              <div className="ml-auto flex items-center gap-0.5">
                <LanguageSwitcher lang={data.lang} />
                <ThemeToggle />
                <Separator orientation="vertical" className="mx-1 data-[orientation=vertical]:h-5" />
                <AccountMenu user={data.user} />
              </div>
            </header>

            <div className="relative flex flex-1">
              {/* On narrow screens a rail-wide placeholder keeps the page from moving when the menu opens over it. */}
              <div className={cn("sticky top-14 z-40 h-[calc(100dvh-3.5rem)] shrink-0", !wide && "w-14")}>
                <Sidebar
                  id={SIDEBAR_ID}
                  menu={data.menu}
                  collapsed={collapsed}
                  onNavigate={() => setOpenOnNarrow(false)}
                  className={cn("h-full", overlay && "fixed top-14 bottom-0 left-0 z-40 h-auto shadow-xl")}
                />
              </div>
              {overlay && (
                <button
                  type="button"
                  aria-label={t("ui.nav.close")}
                  onClick={() => setOpenOnNarrow(false)}
                  className="fixed inset-0 top-14 z-30 bg-black/40 animate-overlay-in"
                />
              )}
              <main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none md:p-6">
                <Breadcrumbs menu={data.menu} className="mb-3 md:hidden" />
                {children}
              </main>
            </div>
          </div>
        </ConfirmProvider>
      </TooltipProvider>
    </FormatProvider>
  );
}
