import { beforeAll, describe, expect, inject, it } from "vitest";
import { presetRange } from "../../domain/date-range";
import { localBound } from "../../domain/time";
import en from "../../domain/i18n/locales/en/forms-help.json";
import { api } from "../peers/support";
import { demoAdminPageOfFile, hydrated, text, visit } from "./support/session";

/**
 * The date-range picker of the lists (docs/rules/console.md "Date ranges"): a preset and a custom
 * range put `from`/`to` in the URL, in the operator's time zone, and the table shows what the API
 * lists for the same period.
 */
const baseURL = inject("baseURL");
const r = en.formsHelp.range;

const LISTS = [
  // The charge records' API takes the period as typed; the other two take instants.
  { name: "charge records", screen: "/financialManagement/chargeRecord", api: "/station-service/charge/record", instants: false },
  { name: "reservations", screen: "/operationMaintenance/reservation", api: "/station-service/reservation", instants: true },
  { name: "operation log", screen: "/carrierSystem/operationLog", api: "/system-service/operation-log", instants: true },
];

const { page } = await demoAdminPageOfFile(baseURL);
let timeZone: string;

beforeAll(async () => {
  timeZone = (await (await api()).get<{ timeZone: string }>("/system-service/parameter-settings")).timeZone;
});

/** The table's total ("Total 12") once the page shows it. */
async function shownTotal() {
  const label = page.getByText(new RegExp(`^${text.en.ui.table.total.replace("{{total}}", "(\\d+)")}$`));
  await label.first().waitFor();
  return Number(/(\d+)/.exec((await label.first().textContent()) ?? "")![1]);
}

async function listedTotal(path: string, instants: boolean, from: string, to: string) {
  const bound = (text: string, edge: "from" | "to") => (instants ? new Date(localBound(text, timeZone, edge)!).toISOString() : text);
  return (await (await api()).get<{ total: number }>(`${path}?from=${bound(from, "from")}&to=${bound(to, "to")}`)).total;
}

const picker = () => page.getByRole("search").getByRole("button", { name: new RegExp(`^${r.label}:`) });

describe("the date-range picker", () => {
  it.each(LISTS)("filters the $name by a preset and by a custom range", async ({ screen, api: path, instants }) => {
    await visit(page, `${baseURL}${screen}`);
    await hydrated(page);
    await expect.poll(async () => (await picker().textContent())?.trim()).toBe(r.any);

    await picker().click();
    const week = presetRange("last7Days", Date.now(), timeZone);
    await page.getByRole("group", { name: r.presetsLabel }).getByRole("button", { name: r.presets.last7Days }).click();
    await page.waitForURL((url) => url.searchParams.get("from") === week.from && url.searchParams.get("to") === week.to);
    await expect.poll(async () => (await picker().textContent())?.trim()).toBe(r.presets.last7Days);
    // Files running beside this one add rows meanwhile: the screen and the API agree once nothing
    // was added between the screen's load and the API's answer, so the screen is reloaded until then.
    await expect
      .poll(async () => {
        const listed = await listedTotal(path, instants, week.from, week.to);
        const shown = await shownTotal();
        if (shown === listed) return "as listed";
        await page.reload();
        await hydrated(page);
        return `${shown} shown, ${listed} listed`;
      })
      .toBe("as listed");

    // A custom range typed with the keyboard, times included; nothing happened in 2001.
    await picker().click();
    await page.getByLabel(r.fromDay).fill("2001-03-04");
    await page.getByLabel(r.fromTime).fill("08:15");
    await page.getByLabel(r.toDay).fill("2001-03-05");
    await page.getByLabel(r.toDay).press("Enter");
    await page.waitForURL((url) => url.searchParams.get("from") === "2001-03-04T08:15" && url.searchParams.get("to") === "2001-03-05");
    await expect.poll(shownTotal).toBe(0);
    await expect.poll(async () => (await picker().textContent())?.trim()).toBe("2001-03-04 08:15 – 2001-03-05");

    await picker().click();
    await page.getByRole("button", { name: r.clear }).click();
    await page.waitForURL((url) => !url.searchParams.has("from") && !url.searchParams.has("to"));
  });
});
