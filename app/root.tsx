import { useEffect } from "react";
import { I18nextProvider } from "react-i18next";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
  type LoaderFunctionArgs,
} from "react-router";
import { Toaster } from "./components/ui/toast";
import { ConfirmProvider } from "./components/ui/confirm-dialog";
import { useI18n } from "./lib/use-i18n";
import { StatusPage } from "./components/shell/status-page";
import { themeInitScript } from "./components/shell/theme";
import { loadRoot } from "./root.server";
import "./app.css";

export function loader(args: LoaderFunctionArgs) {
  return loadRoot(args);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = data?.nonce;
  // Marks the page interactive, error pages included, so browser tests wait for hydration instead of sleeping.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang={(data?.lang ?? "en").replace("_", "-")} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <Meta />
        <Links nonce={nonce} />
        {/* Sets the theme before the first paint so a dark console never flashes white. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeInitScript }} />
      </head>
      <body className="min-h-screen bg-background text-foreground antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const data = useRouteLoaderData<typeof loader>("root");
  const lang = data?.lang ?? "en";
  const i18n = useI18n(lang);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfirmProvider>
        <Outlet />
        <Toaster />
      </ConfirmProvider>
    </I18nextProvider>
  );
}

/** A failure outside the console shell (a public page, or the shell itself): a bare status page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const i18n = useI18n(data?.lang ?? "en");
  return (
    <I18nextProvider i18n={i18n}>
      <main>
        <StatusPage status={isRouteErrorResponse(error) ? error.status : 500} home="/" className="min-h-screen" />
      </main>
    </I18nextProvider>
  );
}
