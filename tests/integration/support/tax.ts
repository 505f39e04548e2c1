import { env } from "cloudflare:test";

/**
 * The demo operators have no tax rate; a test that prices with VAT gives one (e.g. "23" for 23 %
 * included in the prices) and takes it back after, written straight into the parameter settings
 * document so the test does not depend on the settings screen's other fields.
 */
export const setTaxRate = (operatorCode: string, rate: string) =>
  env.DB.prepare(
    "UPDATE parameter_settings SET document = json_set(document, '$.tax.rate', ?) WHERE operator_id = (SELECT id FROM operators WHERE code = ?)",
  )
    .bind(rate, operatorCode)
    .run();
