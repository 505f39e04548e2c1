/** One fault's line in the table `npm run chaos` prints (docs/testing.md "Chaos"). */
export interface ChaosRow {
  fault: string;
  checked: string;
  sessions: number;
  /** Minor units, summed over the sessions' charge records. */
  money: number;
  lost: number;
  doubled: number;
  /** What went wrong, a line each (printed under the table). */
  problems: string[];
  /** Something failed that is neither lost nor doubled (a strict-mode violation, a D1 error, a crash of the fault itself). */
  failed: boolean;
}

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

/** The table, the problems under it and the closing line `chaos: lost N, doubled M`. */
export function chaosReport(rows: readonly ChaosRow[]): string {
  const lines = [
    `${pad("fault", 30)} ${pad("checked", 72)} ${"sessions".padStart(8)} ${"money".padStart(9)} ${"lost".padStart(5)} ${"doubled".padStart(7)}`,
    ...rows.map(
      (r) =>
        `${pad(r.fault, 30)} ${pad(r.checked, 72)} ${String(r.sessions).padStart(8)} ${String(r.money).padStart(9)} ${String(r.lost).padStart(5)} ${String(r.doubled).padStart(7)}${r.failed ? "  FAILED" : ""}`,
    ),
  ];
  const problems = rows.flatMap((r) => r.problems.map((p) => `  ${r.fault}: ${p}`));
  if (problems.length > 0) lines.push("", ...problems.slice(0, 200), ...(problems.length > 200 ? [`  … and ${problems.length - 200} more`] : []));
  const lost = rows.reduce((n, r) => n + r.lost, 0);
  const doubled = rows.reduce((n, r) => n + r.doubled, 0);
  lines.push("", `chaos: lost ${lost}, doubled ${doubled}`);
  return lines.join("\n");
}

/** The exit code: non-zero when anything was lost or doubled, or a fault failed otherwise. */
export const chaosExitCode = (rows: readonly ChaosRow[]) => (rows.some((r) => r.lost > 0 || r.doubled > 0 || r.failed) ? 1 : 0);
