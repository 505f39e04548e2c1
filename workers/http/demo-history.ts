/** Where `npm start` and `npm run dev` ask for the demo's month of history (scripts/start.ts). */
export const DEMO_HISTORY_PATH = "/__demo/history";

/**
 * Writes the demo's month of history (docs/rules/demo.md "Demo history") inside the Worker, where
 * the product's verbs run: only when the Worker runs with `DEMO_HISTORY=on`, which only the
 * committed `.dev.vars` sets (local development; no deployed configuration has it), and only by
 * POST; otherwise a plain 404. Answers what it wrote, or null when the history was there already.
 * The history's module loads only here, so `scripts/start.ts` reads this path without it.
 */
export async function demoHistory(request: Request, env: Env): Promise<Response> {
  if ((env as { DEMO_HISTORY?: string }).DEMO_HISTORY !== "on" || request.method !== "POST") return new Response("Not found", { status: 404 });
  const { seedDemoHistory } = await import("../services/demo/history");
  return Response.json(await seedDemoHistory(env));
}
