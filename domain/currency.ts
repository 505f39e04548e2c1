/**
 * What a currency code implies when the platform gives no more: its narrow sign and its minor
 * unit decimals, as `Intl` knows them (PLN → zł, 2; JPY → ¥, 0).
 */
export function currencyFacts(code: string): { sign: string; decimals: number } {
  try {
    const format = new Intl.NumberFormat("en", { style: "currency", currency: code, currencyDisplay: "narrowSymbol" });
    const sign = format.formatToParts(0).find((p) => p.type === "currency")?.value ?? code;
    return { sign, decimals: format.resolvedOptions().maximumFractionDigits ?? 2 };
  } catch {
    return { sign: code, decimals: 2 };
  }
}
