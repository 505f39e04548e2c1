import { Printer } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useLocation, useParams, type LoaderFunctionArgs } from "react-router";
import { FeedbackForm } from "~/components/public/feedback-form";
import { DocumentTitle } from "~/components/shell/document-title";
import { LanguageSwitcher } from "~/components/shell/language-switcher";
import { StatusPage } from "~/components/shell/status-page";
import { Button } from "~/components/ui/button";
import { ReceiptView } from "./receipt-view";
import { loadPublicReceipt } from "./records.server";

/**
 * The public pages of a receipt, for drivers who paid without an account (docs/rules/records.md
 * "Receipts"): /tourist/chargingRecordDetails/{token} and /tourist/invoices/{token} by the
 * record's receipt token, /valina-bill/{code} by its bill code. No login; a wrong token or code
 * is the not-found page with HTTP 404 at the same address. Mobile first, and printable.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPublicReceipt(args, args.params.code === undefined ? "receipt" : "bill");
}

const TITLES: [prefix: string, key: string][] = [
  ["/tourist/invoices/", "records.receipt.invoiceTitle"],
  ["/valina-bill/", "records.receipt.billTitle"],
];

export default function PublicReceipt() {
  const { receipt, lang } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const params = useParams();
  if (!receipt) return <StatusPage status={404} home="/homePage" className="min-h-screen" />;
  const title = t(TITLES.find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? "records.receipt.title");
  return (
    <main className="min-h-screen bg-muted/40 px-3 py-4 sm:py-10 print:bg-white print:p-0">
      <DocumentTitle screen={title} owner={receipt.operatorName} />
      <div className="mx-auto flex w-full max-w-md flex-col gap-3 print:max-w-none">
        <div className="flex items-center justify-between gap-2 print:hidden">
          <LanguageSwitcher lang={lang} />
          <Button variant="outline" onClick={() => window.print()}>
            <Printer aria-hidden />
            {t("records.receipt.print")}
          </Button>
        </div>
        <article className="rounded-2xl border bg-card p-5 shadow-sm print:rounded-none print:border-0 print:p-0 print:shadow-none">
          <header className="mb-2 flex flex-col gap-0.5 border-b pb-3">
            <p className="text-sm text-muted-foreground print:text-black">{receipt.operatorName}</p>
            <h1 className="text-xl font-semibold">{title}</h1>
          </header>
          <ReceiptView receipt={receipt} />
        </article>
        {/* Feedback about this session by its receipt token, or about its charger on the bill page (docs/rules/content.md "Feedback"). */}
        {params.id ? <FeedbackForm about={{ receiptToken: params.id }} /> : receipt.serialNumber ? <FeedbackForm about={{ serialNumber: receipt.serialNumber }} /> : null}
      </div>
    </main>
  );
}
