import { parseLanguage, type Language } from "./languages";

/**
 * The first of a browser's Accept-Language tags (by weight, then order) that is one of the six
 * languages. A driver who scans a charger's QR code has never chosen a language here, so the
 * browser's is the best guess (docs/rules/public-charger.md "The charger page").
 */
export function acceptedLanguage(header: string | null | undefined): Language | undefined {
  if (!header) return undefined;
  const tags = header
    .split(",")
    .map((part, index) => {
      const [tag, ...rest] = part.trim().split(";");
      const q = rest.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.tag && t.tag !== "*" && t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of tags) {
    const language = parseLanguage(tag);
    if (language) return language;
  }
  return undefined;
}
