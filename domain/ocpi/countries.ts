/**
 * ISO 3166-1 alpha-3 of an alpha-2 code: an OCPI Location names its country in alpha-3 while
 * credentials name the party's in alpha-2 (OCPI 2.2.1 §8.3.1, §7.3.1). The countries an operator
 * of ours may be in; another is refused rather than guessed.
 */
const ALPHA3: Record<string, string> = {
  AT: "AUT", BE: "BEL", BG: "BGR", BR: "BRA", CH: "CHE", CN: "CHN", CY: "CYP", CZ: "CZE", DE: "DEU", DK: "DNK", EE: "EST", ES: "ESP",
  FI: "FIN", FR: "FRA", GB: "GBR", GR: "GRC", HR: "HRV", HU: "HUN", IE: "IRL", IS: "ISL", IT: "ITA", LI: "LIE", LT: "LTU", LU: "LUX",
  LV: "LVA", MT: "MLT", NL: "NLD", NO: "NOR", PL: "POL", PT: "PRT", RO: "ROU", SE: "SWE", SI: "SVN", SK: "SVK", TW: "TWN", UA: "UKR",
  US: "USA", CA: "CAN", AU: "AUS", NZ: "NZL", JP: "JPN", KR: "KOR", SG: "SGP", HK: "HKG", MO: "MAC",
};

export const alpha3Of = (alpha2: string): string | undefined => ALPHA3[alpha2.toUpperCase()];
