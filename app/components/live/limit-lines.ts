/** One horizontal limit on the load chart: its label, its value in kW and where its label sits. */
export type LimitLine = { key: string; label: string; kw: number; labelAt: "insideTopRight" | "insideTopLeft" | "insideBottomRight" | "insideBottomLeft" };

const LABEL_SPOTS = ["insideTopRight", "insideTopLeft", "insideBottomRight", "insideBottomLeft"] as const;

/**
 * The load chart's limit lines (docs/rules/monitoring.md "Load monitoring"): one per configuration,
 * the station's own power limit and then each load-balancing configuration in force, each with its
 * name. Lines at the same value put their labels in different corners so none hides another.
 */
export function limitLines(stationLimit: { label: string; kw: number } | null, configurations: readonly { id: number; label: string; kw: number }[]): LimitLine[] {
  const all = [...(stationLimit ? [{ key: "station", ...stationLimit }] : []), ...configurations.map((c) => ({ key: `lb-${c.id}`, label: c.label, kw: c.kw }))];
  const seen = new Map<number, number>();
  return all.map((line) => {
    const n = seen.get(line.kw) ?? 0;
    seen.set(line.kw, n + 1);
    return { ...line, labelAt: LABEL_SPOTS[n % LABEL_SPOTS.length] };
  });
}
