import { describe, expect, it } from "vitest";
import { flattenCatalogue } from "../../tenants/menu-catalogue";

/**
 * Every URL of the menu catalogue has its own screen module (docs/rules/console.md "Route guard"):
 * `app/routes.ts` throws for one without, so loading the route table proves it.
 */
describe("the console's route table", () => {
  it("gives every URL of the menu catalogue a screen module of its own, and no placeholder", async () => {
    const { default: routes } = await import("../../app/routes");
    const files = new Map<string, string>();
    const walk = (list: readonly { path?: string; file: string; children?: unknown[] }[]) => {
      for (const r of list) {
        if (r.path !== undefined) files.set(`/${r.path}`, r.file);
        if (r.children) walk(r.children as never);
      }
    };
    walk(routes as never);
    const urls = flattenCatalogue().flatMap(({ entry }) => [...(entry.url ? [entry.url] : []), ...(entry.pages ?? []).map((p) => p.path)]);
    for (const url of urls) expect(files.get(url), url).toMatch(/^routes\//);
    expect([...files.values()].filter((file) => /console\/screen\.tsx$/.test(file))).toEqual([]);
  });
});
