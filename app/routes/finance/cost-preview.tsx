import { useState } from "react";
import { useTranslation } from "react-i18next";
import { priceSession, sampleSession, type SampleSession, type StrategyPrices } from "../../../domain/pricing";
import { utcToZoned } from "../../../domain/time";
import { useFormat } from "~/components/format";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";

/**
 * The cost of a sample session, priced in the browser by the engine the billing uses
 * (docs/rules/pricing.md "The editor"): energy, start, charging minutes and idle minutes.
 */
export function CostPreview({ prices, decimals }: { prices: StrategyPrices | undefined; decimals: number }) {
  const { t } = useTranslation();
  const { money, timeZone } = useFormat();
  const [sample, setSample] = useState<SampleSession>(() => ({
    energyKwh: "20",
    startTime: `${utcToZoned(Date.now(), timeZone).slice(0, 10)}T18:00`,
    durationMinutes: 90,
    idleBeforeMinutes: 0,
    idleDuringMinutes: 0,
    idleAfterMinutes: 0,
  }));
  const facts = sampleSession(sample, timeZone);
  const priced = prices && facts ? priceSession({ prices, session: facts, timeZone, currencyDecimals: decimals }) : undefined;
  const minutes = (key: keyof SampleSession, label: string) => (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      <Input
        inputMode="numeric"
        value={String(sample[key])}
        onChange={(e) => setSample({ ...sample, [key]: Number(e.target.value.replace(/\D/g, "").slice(0, 5)) })}
      />
    </label>
  );

  return (
    <Card data-testid="cost-preview">
      <CardHeader>
        <CardTitle>{t("pricing.preview.title")}</CardTitle>
        <CardDescription>{t("pricing.preview.hint")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="grid gap-3 sm:grid-cols-3">
          <label className="flex flex-col gap-1 text-sm">
            {t("pricing.preview.energy")}
            <Input inputMode="decimal" value={sample.energyKwh} onChange={(e) => setSample({ ...sample, energyKwh: e.target.value.replace(",", ".") })} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            {t("pricing.preview.start")}
            <Input type="datetime-local" value={sample.startTime} onChange={(e) => setSample({ ...sample, startTime: e.target.value })} />
          </label>
          {minutes("durationMinutes", t("pricing.preview.duration"))}
          {minutes("idleBeforeMinutes", t("pricing.preview.idleBefore"))}
          {minutes("idleDuringMinutes", t("pricing.preview.idleDuring"))}
          {minutes("idleAfterMinutes", t("pricing.preview.idleAfter"))}
        </div>
        {priced ? (
          <table className="w-full text-sm">
            <caption className="sr-only">{t("pricing.preview.title")}</caption>
            <tbody>
              {priced.lines.map((line, i) => (
                <tr key={i} className="border-b">
                  <th scope="row" className="py-1.5 text-left font-normal">
                    {t(`pricing.lines.${line.kind}`)}
                    {line.start && <span className="ml-2 text-muted-foreground tabular-nums">{`${line.start}–${line.end}`}</span>}
                  </th>
                  <td className="py-1.5 text-right text-muted-foreground tabular-nums">
                    {line.unitPrice ? `${line.quantity} × ${line.unitPrice}` : `${line.quantity} %`}
                  </td>
                  <td className="py-1.5 text-right tabular-nums">{money(line.amount)}</td>
                </tr>
              ))}
              <tr>
                <th scope="row" className="pt-2 text-left">
                  {t("pricing.preview.total")}
                </th>
                <td />
                <td className="pt-2 text-right font-semibold tabular-nums" data-testid="preview-total">
                  {money(priced.totalCost)}
                </td>
              </tr>
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-muted-foreground">{t("pricing.preview.invalid")}</p>
        )}
      </CardContent>
    </Card>
  );
}
