import { Globe, Mail, Phone, PlugZap } from "lucide-react";
import { useEffect, useState } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { useI18n } from "~/lib/use-i18n";
import { intlLocale, type Language } from "../../../domain/languages";
import { formatNumber, formatPower, formatTime, type NumberStyle } from "../../../domain/format";
import type { PricePeriod, PublicIdleFee, PublicPrice } from "../../../domain/pricing/public-price";
import { isConnectorStatus } from "../../../domain/connector-status";
import type { ConnectorStandard } from "../../../domain/schemas/equipment";
import type { PublicCharger, PublicConnector } from "../../../workers/services/public-charger/charger";
import { ConnectorStatusBadge } from "~/components/live/status-badges";
import { DocumentTitle } from "~/components/shell/document-title";
import { LanguageSwitcher } from "~/components/shell/language-switcher";
import { StatusPage } from "~/components/shell/status-page";
import { usePublicApi } from "~/lib/api";
import { StandardImage } from "../equipment/connector-standards";
import { FeedbackForm } from "~/components/public/feedback-form";
import { AdHocPanel } from "./ad-hoc-panel";
import { loadChargerPage } from "./charger-page.server";

/**
 * The public page of a charger that its QR code opens (docs/rules/public-charger.md "The charger
 * page"): no login, the operator's name, logo and language, mobile first. Per connector: the live
 * status (the JSON polled every few seconds), power, plug, the price now and for the next hours
 * with VAT and the idle fee, and the operator's contact. An unknown serial number is the
 * not-found page with HTTP 404.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadChargerPage(args);
}

/** How often the page asks for the statuses again. */
const POLL_MS = 5_000;

/** A unit price without the zeros past the currency's decimals ("1.3500" → "1.35", "0.3616" stays). */
function shownPrice(price: string, currencyDecimals: number, style: NumberStyle) {
  const [, fraction = ""] = price.split(".");
  const decimals = Math.max(currencyDecimals, fraction.replace(/0+$/, "").length);
  return formatNumber(price as `${number}`, decimals, style);
}

/** The charger as the JSON says it now: the loader's answer, then every poll's. */
function useLiveCharger(initial: PublicCharger) {
  const api = usePublicApi();
  const [charger, setCharger] = useState(initial);
  useEffect(() => setCharger(initial), [initial]);
  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState !== "visible") return;
      const next = await api.get("/public-service/charger/{serialNumber}", { params: { serialNumber: initial.serialNumber } });
      if (!stopped) setCharger(next);
    };
    const timer = setInterval(() => void poll().catch(() => undefined), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [api, initial.serialNumber]);
  return charger;
}

export default function ChargerPage() {
  const { charger, lang } = useLoaderData<typeof loader>();
  const i18n = useI18n(lang);
  return <I18nextProvider i18n={i18n}>{charger ? <Charger initial={charger} lang={lang} /> : <StatusPage status={404} home="/homePage" className="min-h-screen" />}</I18nextProvider>;
}

function Charger({ initial, lang }: { initial: PublicCharger; lang: Language }) {
  const { t } = useTranslation();
  const charger = useLiveCharger(initial);
  const style: NumberStyle = { language: lang, decimalSeparator: charger.decimalSeparator };
  const title = t("publicCharger.title", { serial: charger.serialNumber });
  return (
    <main lang={intlLocale(lang)} className="min-h-screen bg-muted/40 px-3 py-4 sm:py-10">
      <DocumentTitle screen={title} owner={charger.operatorName} />
      <div className="mx-auto flex w-full max-w-md flex-col gap-3">
        <header className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            {charger.logoUrl && <img src={charger.logoUrl} alt="" className="size-10 shrink-0 rounded-md border bg-white object-contain" />}
            <div className="min-w-0">
              <p className="truncate text-sm font-medium">{charger.operatorName}</p>
              <h1 className="text-xl font-semibold break-words">{title}</h1>
            </div>
          </div>
          <LanguageSwitcher lang={lang} />
        </header>
        <p className="text-sm text-muted-foreground">
          {[charger.name, charger.station.name, charger.station.address].filter(Boolean).join(" · ")}
        </p>
        {!charger.enabled ? (
          <p role="status" className="rounded-lg border border-destructive/40 bg-card p-3 text-sm">
            {t("publicCharger.disabled")}
          </p>
        ) : (
          !charger.online && (
            <p role="status" className="rounded-lg border bg-card p-3 text-sm">
              {t("publicCharger.offline")}
            </p>
          )
        )}
        {charger.connectors.map((connector) => (
          <ConnectorCard key={connector.connectorId} charger={charger} connector={connector} style={style} />
        ))}
        <p className="text-xs text-muted-foreground">{t("publicCharger.live")}</p>
        <Contact charger={charger} />
        {/* A driver tells the operator about this charger (docs/rules/content.md "Feedback"). */}
        <FeedbackForm about={{ serialNumber: charger.serialNumber }} />
      </div>
    </main>
  );
}

function ConnectorCard({ charger, connector, style }: { charger: PublicCharger; connector: PublicConnector; style: NumberStyle }) {
  const { t } = useTranslation();
  const headingId = `connector-${connector.connectorId}`;
  const plug = connector.plug as ConnectorStandard;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border bg-card p-4 shadow-sm" data-testid="public-connector" data-connector={connector.connectorId}>
      <div className="flex items-start justify-between gap-3">
        <div className="flex items-center gap-3">
          <StandardImage standard={plug} size={44} />
          <div>
            <h2 id={headingId} className="text-base font-semibold">
              {t("publicCharger.connector", { no: connector.connectorId })}
            </h2>
            <p className="text-sm text-muted-foreground">{t(`points.standards.${plug}`)}</p>
          </div>
        </div>
        <ConnectorStatusBadge status={isConnectorStatus(connector.status) ? connector.status : null} />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{t("publicCharger.power")}</dt>
        <dd className="text-right font-medium tabular-nums">{formatPower(connector.powerKw, style)}</dd>
      </dl>
      {connector.price ? (
        <Price price={connector.price} upcoming={connector.upcoming} charger={charger} style={style} />
      ) : (
        <p className="mt-3 text-sm">{t("publicCharger.noPrice")}</p>
      )}
      {/* The ad-hoc payment panel mounts here, per connector (docs/rules/public-charger.md "The charger page"). */}
      <div data-slot="ad-hoc" data-connector={connector.connectorId} className="mt-3 empty:hidden">
        <AdHocPanel serialNumber={charger.serialNumber} connectorId={connector.connectorId} startable={charger.enabled && charger.online && connector.status === "Available"} style={style} />
      </div>
    </section>
  );
}

function Price({ price, upcoming, charger, style }: { price: PublicPrice; upcoming: PricePeriod[]; charger: PublicCharger; style: NumberStyle }) {
  const { t } = useTranslation();
  const money = (value: string) => shownPrice(value, charger.currencyDecimals, style);
  const currency = charger.currency;
  const time = (iso: string) => formatTime(iso, charger.timeZone, style.language);
  const zero = (value: string | null) => value !== null && /^0(\.0+)?$/.test(value);
  const rows: [label: string, value: string][] = [[t("publicCharger.energy"), t("publicCharger.perKwh", { price: money(price.energyPerKwh), currency })]];
  if (price.timePerMinute !== null && !zero(price.timePerMinute)) rows.push([t("publicCharger.time"), t("publicCharger.perMinute", { price: money(price.timePerMinute), currency })]);
  if (price.timePerHour !== null) rows.push([t("publicCharger.time"), t("publicCharger.perHour", { price: money(price.timePerHour), currency })]);
  if (!zero(price.sessionFee)) rows.push([t("publicCharger.sessionFee"), t("publicCharger.perSession", { price: money(price.sessionFee), currency })]);
  for (const fee of price.idleFees) rows.push([t(`publicCharger.idle.${fee.kind}`), idleText(fee, money, currency, style, t)]);
  if (!price.idleFees.some((fee) => fee.kind === "AFTER")) rows.push([t("publicCharger.idle.AFTER"), t("publicCharger.none")]);
  const rate = price.vatPercent;
  return (
    <div className="mt-3 border-t pt-3" data-testid="public-price">
      <h3 className="text-sm font-semibold">{t("publicCharger.priceNow")}</h3>
      <p className="text-xs text-muted-foreground">{price.validUntil ? t("publicCharger.priceUntil", { time: time(price.validUntil) }) : t("publicCharger.priceAllDay")}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {rows.map(([label, value], index) => (
          <div key={index} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-right font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-muted-foreground">
        {zero(rate) ? t("publicCharger.vatNone", { currency }) : t("publicCharger.vatIncluded", { rate: formatNumber(rate as `${number}`, rate.includes(".") ? rate.split(".")[1].length : 0, style) })}
      </p>
      {upcoming.length > 0 && (
        <>
          <h3 className="mt-3 text-sm font-semibold">{t("publicCharger.upcoming")}</h3>
          <ul className="mt-1 flex flex-col gap-0.5 text-sm" data-testid="public-upcoming">
            {upcoming.map((period) => (
              <li key={period.validFrom} className="flex justify-between gap-3">
                <span className="text-muted-foreground">{t("publicCharger.from", { time: time(period.validFrom) })}</span>
                <span className="font-medium tabular-nums">{t("publicCharger.perKwh", { price: money(period.energyPerKwh), currency })}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function idleText(fee: PublicIdleFee, money: (value: string) => string, currency: string, style: NumberStyle, t: (key: string, values?: Record<string, unknown>) => string) {
  const parts = [fee.perMinute !== null ? t("publicCharger.perMinute", { price: money(fee.perMinute), currency }) : t("publicCharger.perHour", { price: money(fee.perHour ?? "0"), currency })];
  if (fee.graceMinutes > 0) parts.push(t("publicCharger.grace", { minutes: formatNumber(fee.graceMinutes, 0, style) }));
  if (fee.cap !== null) parts.push(t("publicCharger.cap", { amount: money(fee.cap), currency }));
  return parts.join(", ");
}

function Contact({ charger }: { charger: PublicCharger }) {
  const { t } = useTranslation();
  const { phone, email, homeUrl } = charger.contact;
  if (!phone && !email && !homeUrl) return null;
  const link = "inline-flex min-h-11 items-center gap-2 rounded-md px-2 text-sm font-medium text-primary underline-offset-4 hover:underline";
  return (
    <footer className="rounded-2xl border bg-card p-4">
      <h2 className="flex items-center gap-2 text-base font-semibold">
        <PlugZap className="size-4" aria-hidden />
        {t("publicCharger.help")}
      </h2>
      <ul className="mt-1 flex flex-col">
        {phone && (
          <li>
            <a className={link} href={`tel:${phone.replace(/[^\d+]/g, "")}`}>
              <Phone className="size-4" aria-hidden />
              {t("publicCharger.call", { phone })}
            </a>
          </li>
        )}
        {email && (
          <li>
            <a className={link} href={`mailto:${email}`}>
              <Mail className="size-4" aria-hidden />
              {t("publicCharger.write", { email })}
            </a>
          </li>
        )}
        {homeUrl && /^https?:\/\//.test(homeUrl) && (
          <li>
            <a className={link} href={homeUrl} rel="noopener noreferrer">
              <Globe className="size-4" aria-hidden />
              {t("publicCharger.website")}
            </a>
          </li>
        )}
      </ul>
    </footer>
  );
}
