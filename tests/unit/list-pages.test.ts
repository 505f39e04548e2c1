import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One way to build a list (docs/rules/console.md "Lists are built from shared pieces"): a static
 * check over the console's route modules, as tests/unit/console-routes.test.ts checks the route
 * table. A list page (a module that renders `<DataTable`) filters through the shared toolbar's
 * fields and lists its row actions for `RowActions`; none writes its own filter field, action
 * buttons or confirmation dialog.
 */
const ROUTES = join(__dirname, "../../app/routes");

/**
 * True exceptions, each with its reason. Keyed by the module's path under app/routes and the rule.
 */
const ALLOWED: Record<string, readonly Rule[]> = {
  // The retention archives are a section of the parameter-settings screen, paged through the API
  // client rather than the URL: their kind filter is component state, not a URL filter.
  "settings/retention-panel.tsx": ["filter fields"],
};

type Rule = "filter fields" | "hand-bound filters" | "date inputs" | "row action markup" | "confirmation dialogs";

function routeModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routeModules(path);
    return /\.tsx$/.test(entry.name) ? [path] : [];
  });
}

/** The children of each `<DataTableToolbar …>…</DataTableToolbar>`, without its `actions={…}` (buttons such as Add or Export). */
function toolbarChildren(source: string): string[] {
  const blocks: string[] = [];
  const open = /<DataTableToolbar\b/g;
  for (let match = open.exec(source); match; match = open.exec(source)) {
    // The opening tag ends at the first `>` outside braces (the `actions` prop holds JSX of its own).
    let depth = 0;
    let at = match.index + match[0].length;
    for (; at < source.length; at++) {
      const c = source[at];
      if (c === "{") depth++;
      else if (c === "}") depth--;
      else if (c === ">" && depth === 0) break;
    }
    const end = source.indexOf("</DataTableToolbar>", at);
    if (end > at) blocks.push(source.slice(at + 1, end));
  }
  return blocks;
}

/** The cell of each hand-written `id: "actions"` column (the shared `actionsColumn` writes none). */
function actionColumns(source: string): string[] {
  const cells: string[] = [];
  const open = /id: "actions",/g;
  for (let match = open.exec(source); match; match = open.exec(source)) {
    const end = source.indexOf("\n    },", match.index);
    cells.push(source.slice(match.index, end < 0 ? undefined : end));
  }
  return cells;
}

/** What each rule finds in a list page's source: one line per offence. */
const RULES: Record<Rule, (source: string) => string[]> = {
  // Raw form controls among a toolbar's filters; the shared fields are FilterText, FilterSelect,
  // DateRangePicker (and the serial-number picker, another shared field), plus hidden inputs.
  "filter fields": (source) =>
    toolbarChildren(source).flatMap((block) => (block.match(/<(Input|NativeSelect|select|Select|Textarea|Checkbox|Switch)\b[^>]*|<input\b(?![^>]*type="hidden")[^>]*/g) ?? []).map((tag) => tag.slice(0, 80))),
  // A control bound to the URL by hand, inside or outside a toolbar (the serial-number picker
  // takes its value this way until it reads the URL itself).
  "hand-bound filters": (source) =>
    (source.match(/<(?!SerialNumberPicker)[A-Z]\w*\b[^>]*defaultValue=\{(params|searchParams)\.get\("[^"]+"\)/g) ?? []).map((tag) => tag.slice(0, 80)),
  // A period typed into date inputs named as the list's bounds, instead of the date-range picker.
  "date inputs": (source) => (source.match(/<Input\b[^>]*type="date(time-local)?"[^>]*name="(from|to)"|<Input\b[^>]*name="(from|to)"[^>]*type="date/g) ?? []).map((tag) => tag.slice(0, 80)),
  // An actions column drawing its own buttons or links instead of `RowActions`/`actionsColumn`.
  "row action markup": (source) => actionColumns(source).filter((cell) => !/<RowActions\b/.test(cell)).map((cell) => cell.slice(0, 80)),
  // A confirmation of its own: the alert dialog used directly, or a delete button that asks by itself.
  "confirmation dialogs": (source) => (source.match(/from "~\/components\/ui\/alert-dialog"|\bDeleteRowButton\b|<AlertDialog\b/g) ?? []),
};

const listPages = routeModules(ROUTES)
  .map((path) => ({ name: relative(ROUTES, path).split("\\").join("/"), source: readFileSync(path, "utf8") }))
  .filter(({ source }) => /<DataTable\b/.test(source));

describe("list pages", () => {
  it("are found: the check reads the console's lists", () => {
    expect(listPages.length).toBeGreaterThan(40);
    expect(listPages.map((p) => p.name)).toEqual(expect.arrayContaining(["equipment/stations.tsx", "drivers/cards.tsx", "monitoring/reliability.tsx"]));
  });

  it.each(Object.keys(RULES) as Rule[])("write no %s of their own: they use the shared toolbar fields, row actions and confirmation", (rule) => {
    const offences = listPages.flatMap(({ name, source }) => (ALLOWED[name]?.includes(rule) ? [] : RULES[rule](source).map((found) => `${name}: ${found}`)));
    expect(offences).toEqual([]);
  });

  it("allows only exceptions that are still needed", () => {
    const stale = Object.entries(ALLOWED).flatMap(([name, rules]) => {
      const page = listPages.find((p) => p.name === name);
      return rules.filter((rule) => !page || RULES[rule](page.source).length === 0).map((rule) => `${name}: ${rule}`);
    });
    expect(stale).toEqual([]);
  });

  it("catches each kind of hand-written list piece", () => {
    const page = `
      <DataTableToolbar actions={<Button onClick={() => go()}>Add</Button>}>
        <Input name="name" defaultValue={params.get("name") ?? ""} />
        <input type="hidden" name="tab" value="a" />
      </DataTableToolbar>
      <Input type="date" name="from" />
      import { AlertDialog } from "~/components/ui/alert-dialog";
      const columns = [
        {
          id: "actions",
          cell: ({ row }) => <Button onClick={() => remove(row.original)}>Delete</Button>,
        },
      ];`;
    for (const rule of Object.keys(RULES) as Rule[]) expect(RULES[rule](page), rule).not.toEqual([]);
    const shared = `
      <DataTableToolbar>
        <FilterText name="name" label={t("x")} />
        <input type="hidden" name="tab" value="a" />
        <DateRangePicker />
      </DataTableToolbar>
      const columns = [actionsColumn<Row>(t("common.actions"), (row) => [remove(() => send(row.id))])];`;
    for (const rule of Object.keys(RULES) as Rule[]) expect(RULES[rule](shared), rule).toEqual([]);
  });
});
