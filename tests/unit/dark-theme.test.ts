import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The dark theme changes colours and nothing else (docs/rules/console.md "Accessibility"): the
 * browser tests check it against axe-core's colour rules only (tests/e2e/support/axe.ts), the
 * other rules answering as in the light theme. A `dark:` utility that hid, moved or resized
 * something would need the dark theme checked against every rule again.
 */
const root = join(__dirname, "../..");
const css = readFileSync(join(root, "app/app.css"), "utf8");

/** Tailwind's palette and the theme's own colours (`--color-*` in app/app.css). */
const PALETTE = ["slate", "gray", "zinc", "neutral", "stone", "red", "orange", "amber", "yellow", "lime", "green", "emerald", "teal", "cyan", "sky", "blue", "indigo", "violet", "purple", "fuchsia", "pink", "rose", "black", "white", "transparent", "current", "inherit"];
const COLOURS = new Set([...PALETTE, ...[...css.matchAll(/--color-([\w-]+):/g)].map(([, name]) => name)]);
/** Utilities that set a colour, followed by the colour's name. */
const COLOUR_UTILITY = /^(?:bg|text|border(?:-[xytrbl])?|ring|outline|fill|stroke|divide|from|via|to|decoration|caret|accent|placeholder)-(.+?)(?:-\d+)?(?:\/\d+)?$/;

describe("the dark theme", () => {
  it("is only colours in app/app.css: custom properties and the colour scheme", () => {
    const darkRules = [...css.matchAll(/([^{};/]*\.dark\b[^{};]*)\{([^{}]*)\}/g)];
    expect(darkRules.length).toBeGreaterThan(0);
    const declarations = darkRules.flatMap(([, , body]) =>
      body
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .split(";")
        .map((d) => d.trim())
        .filter(Boolean),
    );
    expect(declarations.filter((d) => !d.startsWith("--") && !d.startsWith("color-scheme:"))).toEqual([]);
  });

  it("is only colours in the console's markup: every dark: utility sets a colour", () => {
    const files = (readdirSync(join(root, "app"), { recursive: true }) as string[]).filter((p) => /\.tsx?$/.test(p));
    const utilities = files.flatMap((path) => [...readFileSync(join(root, "app", path), "utf8").matchAll(/\bdark:([\w/.[\]-]+)/g)].map(([, u]) => ({ path, u })));
    expect(utilities.length).toBeGreaterThan(0);
    const notColours = utilities.filter(({ u }) => !COLOURS.has(COLOUR_UTILITY.exec(u)?.[1] ?? ""));
    expect(notColours.map(({ path, u }) => `app/${path}: dark:${u}`)).toEqual([]);
  });

  it("tells a colour utility from any other", () => {
    for (const u of ["bg-amber-950/40", "bg-input/30", "border-amber-700", "text-amber-100", "text-muted-foreground"]) expect(COLOURS.has(COLOUR_UTILITY.exec(u)?.[1] ?? ""), u).toBe(true);
    for (const u of ["hidden", "block", "text-sm", "border-2", "opacity-50", "bg-[url(x.png)]"]) expect(COLOURS.has(COLOUR_UTILITY.exec(u)?.[1] ?? ""), u).toBe(false);
  });
});
