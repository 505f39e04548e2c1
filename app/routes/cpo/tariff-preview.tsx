import { useTranslation } from "react-i18next";
import { tariffOfStrategy, untranslatable, type TariffParty } from "../../../domain/ocpi/tariff-of-strategy";
import type { TaxSettings } from "../../../domain/pricing/engine";
import type { StrategyPrices } from "../../../domain/pricing/strategy";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

/**
 * The OCPI tariff a strategy publishes to roaming partners (docs/rules/ocpi.md "Tariffs we
 * publish"), written in the browser by the same translation the tariffs sender uses, from the
 * prices being edited.
 */
export function TariffPreview({
  prices,
  strategy,
  terms,
}: {
  prices: StrategyPrices | undefined;
  /** `updatedAt` comes from the loader, so the server's and the browser's renderings agree. */
  strategy: { id: number | null; name: string; currency: string; updatedAt: number };
  terms: { party: TariffParty; tax: TaxSettings } | null;
}) {
  const { t } = useTranslation();
  const tariff =
    prices && terms
      ? tariffOfStrategy(terms.party, { id: strategy.id ?? 0, name: strategy.name || "—", currency: strategy.currency, prices, updatedAt: strategy.updatedAt }, terms.tax)
      : undefined;
  const notes = prices ? untranslatable(prices) : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("ocpi.cpo.preview.title")}</CardTitle>
        <CardDescription>{t(terms ? "ocpi.cpo.preview.description" : "ocpi.cpo.preview.noIdentity")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {notes.length > 0 && (
          <ul className="text-xs text-warning" aria-label={t("ocpi.cpo.tariff.notPublished")}>
            {notes.map((n) => (
              <li key={n}>{t(`ocpi.cpo.tariff.untranslatable.${n}`)}</li>
            ))}
          </ul>
        )}
        {tariff ? (
          // A region that scrolls takes the keyboard's focus, so it can be read without a mouse (WCAG 2.1.1).
          <pre className="max-h-96 overflow-auto rounded bg-muted p-3 text-xs" role="region" tabIndex={0} aria-label={t("ocpi.cpo.preview.title")}>
            {JSON.stringify(tariff, null, 2)}
          </pre>
        ) : (
          terms && <p className="text-sm text-muted-foreground">{t("ocpi.cpo.preview.invalid")}</p>
        )}
      </CardContent>
    </Card>
  );
}
