import { useEffect, useMemo } from "react";
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
import { requestLanguage } from "../workers/i18n";
import { Toaster } from "./components/ui/toast";
import { ConfirmProvider } from "./components/ui/confirm-dialog";
import { createI18n } from "../domain/i18n/i18n";
import { themeInitScript } from "./components/shell/theme";
import "./app.css";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { lang: requestLanguage(request), nonce: context.cloudflare.nonce };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = data?.nonce;
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
  const i18n = useMemo(() => createI18n(lang), [lang]);
  // Marks the page interactive, so browser tests wait for hydration instead of sleeping.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfirmProvider>
        <Outlet />
        <Toaster />
      </ConfirmProvider>
    </I18nextProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const i18n = useMemo(() => createI18n(data?.lang ?? "en"), [data?.lang]);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const t = i18n.t;
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-8 text-center">
      <p className="text-6xl font-semibold text-primary">{status}</p>
      <p className="text-muted-foreground">{status === 404 ? t("notFound.lost") : t("errors.server")}</p>
      <a className="text-primary underline" href="/">
        {t("notFound.back")}
      </a>
    </main>
  );
}
