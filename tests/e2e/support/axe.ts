import axe from "axe-core";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { inject } from "vitest";

/**
 * WCAG 2.1 AA as axe-core measures it, on every screen the browser tests visit: each page of a
 * browser opened by `openBrowser()` is checked after every `goto` and `waitForURL`, in the light
 * and the dark theme, so a new test gets the check without asking for it. A screen is checked
 * once per run (docs/testing.md "Browser tests"): the global setup names a folder, and the first
 * test to show a screen claims it there by creating the screen's file, which only one of the
 * files running side by side can do. A screen is the path with its ids collapsed, as seen by one
 * operator's accounts (a platform's /home is not an operator's). Any violation fails the test
 * with the rule, the element and what is wrong.
 */
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/**
 * The light theme is checked against every rule; the dark theme changes colours only
 * (tests/unit/dark-theme.test.ts), so it is checked against the colour rules (contrast, links
 * told apart from text), the rest giving the same answers as in the light theme.
 */
const COLOUR_RULES = axe
  .getRules(WCAG_AA)
  .filter((rule) => rule.tags.includes("cat.color"))
  .map((rule) => rule.ruleId);
const THEMES: { theme: "light" | "dark"; runOnly: axe.RunOnly }[] = [
  { theme: "light", runOnly: { type: "tag", values: WCAG_AA } },
  { theme: "dark", runOnly: { type: "rule", values: COLOUR_RULES } },
];
/** Elements listed per rule: enough to find the cause without drowning the report. */
const NODES_SHOWN = 5;

const instrumented = new WeakSet<Page>();

/** The screen a page shows: numeric ids do not make a different screen; the operator whose login it used does. */
async function screenOf(page: Page): Promise<string> {
  const path = new URL(page.url()).pathname.replace(/\/\d+(?=\/|$)/g, "/:id");
  const operator = (await page.context().cookies()).find((cookie) => cookie.name === "operatorCode")?.value ?? "-";
  return `${operator} ${path}`;
}

type Violations = (Pick<axe.Result, "id" | "impact" | "help"> & { nodes: Pick<axe.NodeResult, "target" | "failureSummary">[] })[];

export function describeViolations(violations: Violations): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, NODES_SHOWN)
        .map((node) => `    ${node.target.join(" ")}\n      ${(node.failureSummary ?? "").replace(/\n/g, "\n      ")}`);
      const more = v.nodes.length > NODES_SHOWN ? [`    … and ${v.nodes.length - NODES_SHOWN} more`] : [];
      return [`  ${v.id} (${v.impact ?? "n/a"}): ${v.help}`, ...nodes, ...more].join("\n");
    })
    .join("\n");
}

/** Waits until what the page shows has settled: hydrated, painted, enter animations done. */
async function settled(page: Page) {
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
  await page.evaluate(finishedAnimating);
}

/**
 * Runs in the page: resolves once no finite animation or transition is running. A colour that
 * transitions on a parent starts transitions on the children that inherit it a frame later, so
 * it waits frame by frame until a frame starts none.
 */
async function finishedAnimating() {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  const running = () => document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
  for (let quietFrames = 0; quietFrames < 2; ) {
    await frame();
    const now = running();
    quietFrames = now.length === 0 ? quietFrames + 1 : 0;
    await Promise.all(now.map((a) => a.finished.catch(() => undefined)));
  }
}

/** Runs axe-core on the page as it is now, in both themes; the violations found, by theme. */
export async function axeViolations(page: Page): Promise<{ theme: string; violations: Violations }[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not block.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const found: { theme: string; violations: Violations }[] = [];
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
  try {
    for (const { theme, runOnly } of THEMES) {
      await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
      // Colours change through CSS transitions: measure them once they have arrived.
      await page.evaluate(finishedAnimating);
      const violations = await page.evaluate(
        async (rules) => {
          const { axe: inPage } = window as unknown as { axe: typeof axe };
          const results = await inPage.run(document, { runOnly: rules, resultTypes: ["violations"] });
          return results.violations.map(({ id, impact, help, nodes }) => ({
            id,
            impact,
            help,
            nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
          }));
        },
        runOnly,
      );
      if (violations.length > 0) found.push({ theme, violations });
    }
  } finally {
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), wasDark);
  }
  return found;
}

/** Fails with a readable report when the screen shown has any WCAG 2.1 AA violation. */
export async function expectAccessible(page: Page) {
  await settled(page);
  const found = await axeViolations(page);
  if (found.length === 0) return;
  const report = found.map(({ theme, violations }) => `${theme} theme:\n${describeViolations(violations)}`).join("\n");
  throw new Error(`axe-core found WCAG 2.1 AA violations on ${page.url()}\n${report}`);
}

/** Whether this is the first claim of `screen` in the run: creating its file fails for every later one. */
function firstToClaim(screen: string): boolean {
  try {
    closeSync(openSync(join(inject("axeChecked"), encodeURIComponent(screen)), "wx"));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Pages whose screens are not checked (`uncheckedScreens`). */
const unchecked = new WeakSet<Page>();

/**
 * This page's `goto` and `waitForURL` check nothing: it shows screens whose scripts are held back
 * on purpose (a slow connection), which never hydrate, and the check waits for hydration.
 */
export function uncheckedScreens(page: Page) {
  unchecked.add(page);
}

/**
 * Checks the screen the page shows, when no test of the run has checked it yet: what `goto` and
 * `waitForURL` do on arrival, for an arrival of another kind (a navigation by the console's
 * router, `visit` in ./session.ts).
 */
export async function checkScreen(page: Page) {
  if (unchecked.has(page)) return;
  // Claimed before the check: a screen that fails is reported once, by the test that found it.
  if (firstToClaim(await screenOf(page))) await expectAccessible(page);
}

/** Makes `goto` and `waitForURL` of this page check the screen they arrive at. */
export function checkEveryScreen(page: Page) {
  if (instrumented.has(page)) return;
  instrumented.add(page);
  const goto = page.goto.bind(page);
  const waitForURL = page.waitForURL.bind(page);
  page.goto = async (...args: Parameters<Page["goto"]>) => {
    const response = await goto(...args);
    await checkScreen(page);
    return response;
  };
  page.waitForURL = async (...args: Parameters<Page["waitForURL"]>) => {
    await waitForURL(...args);
    await checkScreen(page);
  };
}
