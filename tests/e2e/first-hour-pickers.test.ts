import { describe, expect, inject, it } from "vitest";
import { presetOf, presetRange } from "../../domain/date-range";
import formsHelp from "../../domain/i18n/locales/en/forms-help.json";
import maintenance from "../../domain/i18n/locales/en/maintenance.json";
import monitoring from "../../domain/i18n/locales/en/monitoring.json";
import operations from "../../domain/i18n/locales/en/operations.json";
import pickers from "../../domain/i18n/locales/en/pickers.json";
import platform from "../../domain/i18n/locales/en/platform.json";
import type { PointOption } from "../../domain/schemas/point-options";
import { api } from "../peers/support";
import { demoAdminPageOfFile, field, hydrated, logIn, text, visit } from "./support/session";

/**
 * Pickers where people expect them (docs/rules/console.md "Forms", "Date ranges";
 * docs/rules/lists.md "Pickers"): a serial number chosen from the operator's points, the failures
 * list's period through the lists' date-range picker, and the platform's subscription typed in
 * major units.
 */
const baseURL = inject("baseURL");
const p = pickers.pickers;
const range = formsHelp.formsHelp.range;
const t = { ...text.en, ...monitoring, ...maintenance, ...operations, ...platform };

const { page } = await demoAdminPageOfFile(baseURL);

const serialBox = () => page.getByRole("search").getByRole("combobox", { name: t.monitoring.common.serialNumber });

/**
 * Waits until the search form shows this address's filters: the form is keyed by the URL and
 * made anew when it changes (app/components/data-table/toolbar.tsx), so text typed into the one
 * before would be lost with it. The screen opened here has no serial number in its address.
 */
const searchFormOfThisAddress = () => expect.poll(() => serialBox().inputValue()).toBe("");

/** The operator's first point in serial order, as the picker offers it. */
async function firstPoint(): Promise<PointOption> {
  const [point] = await (await api()).get<PointOption[]>("/station-service/point/options?limit=1");
  return point;
}

describe("the serial-number picker", () => {
  it("offers the operator's points as one types on the alarm list, takes one with the keyboard, and keeps typed text as a filter", async () => {
    const point = await firstPoint();
    expect(point).toBeDefined();
    await visit(page, `${baseURL}/systemMonitoring/alarmRecord`);
    await hydrated(page);

    const box = serialBox();
    await box.fill(point.serialNumber.slice(0, -1));
    const list = page.getByRole("listbox", { name: p.serial.matches });
    await list.getByRole("option", { name: new RegExp(point.serialNumber) }).first().waitFor();
    expect(await box.getAttribute("aria-expanded")).toBe("true");

    // Down through the matches until the point's own is the active one, then Enter takes it.
    for (let step = 0; step < 20; step++) {
      await box.press("ArrowDown");
      const active = await box.getAttribute("aria-activedescendant");
      if (active && (await page.locator(`[id="${active}"]`).textContent())?.startsWith(point.serialNumber)) break;
    }
    await box.press("Enter");
    await expect.poll(() => box.inputValue()).toBe(point.serialNumber);
    expect(await box.getAttribute("aria-expanded")).toBe("false");
    await box.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("serialNumber") === point.serialNumber);

    // Text no point matches stays what the list is filtered by; Escape closes the list.
    await visit(page, `${baseURL}/systemMonitoring/alarmRecord`);
    await hydrated(page);
    await searchFormOfThisAddress();
    await serialBox().fill("no-such-serial");
    await page.getByText(p.serial.none).waitFor();
    await serialBox().press("Escape");
    await expect.poll(() => serialBox().getAttribute("aria-expanded")).toBe("false");
    await serialBox().press("Enter");
    await page.waitForURL((url) => url.searchParams.get("serialNumber") === "no-such-serial");
  });

  it("says when a search failed instead of searching on, and searches again as one types", async () => {
    const point = await firstPoint();
    await visit(page, `${baseURL}/systemMonitoring/alarmRecord`);
    await hydrated(page);
    await searchFormOfThisAddress();
    const options = "**/station-service/point/options?*";
    await page.route(options, (route) => route.abort());
    try {
      await serialBox().fill(point.serialNumber.slice(0, -1));
      await page.getByText(p.serial.failed).waitFor();
    } finally {
      // The page serves the file's later tests: its searches must reach the server again.
      await page.unroute(options);
    }
    await serialBox().fill(point.serialNumber);
    await page.getByRole("listbox", { name: p.serial.matches }).getByRole("option", { name: new RegExp(point.serialNumber) }).first().waitFor();
    expect(await page.getByText(p.serial.failed).count()).toBe(0);
  });

  it("fills the work order form's serial number with a point clicked in the list", async () => {
    const point = await firstPoint();
    await visit(page, `${baseURL}/operationMaintenance/maintain`);
    await hydrated(page);
    await page.getByRole("button", { name: t.maintenance.ui.newOrder }).click();
    const dialog = page.getByRole("dialog", { name: t.maintenance.ui.newOrder });
    const box = dialog.getByRole("combobox", { name: t.maintenance.ui.serialNumber });
    await box.fill(point.serialNumber.slice(0, 3));
    await page.getByRole("listbox", { name: p.serial.matches }).getByRole("option", { name: new RegExp(point.serialNumber) }).first().click();
    await expect.poll(() => box.inputValue()).toBe(point.serialNumber);
    await expect.poll(() => page.getByRole("listbox", { name: p.serial.matches }).count()).toBe(0);
    await page.keyboard.press("Escape");
  });
});

describe("the operation failures list's period", () => {
  it("takes the period through the date-range picker in the operator's time zone, and exports with the same filter in UTC", async () => {
    const { timeZone } = await (await api()).get<{ timeZone: string }>("/system-service/parameter-settings");
    await visit(page, `${baseURL}/operationMaintenance/operationFailure`);
    await hydrated(page);
    const picker = page.getByRole("search").getByRole("button", { name: new RegExp(`^${range.label}:`) });
    const period = page.getByText(/^From .+ to .+$/);
    const before = await period.textContent();
    await picker.click();
    const month = presetRange("thisMonth", Date.now(), timeZone);
    // The screen's data for the new period, which the export reads its filter from.
    const loaded = page.waitForResponse((response) => response.url().includes("operationFailure.data") && new URL(response.url()).searchParams.get("from") === month.from);
    await page.getByRole("group", { name: range.presetsLabel }).getByRole("button", { name: range.presets.thisMonth }).click();
    await page.waitForURL((url) => url.searchParams.get("from") === month.from && url.searchParams.get("to") === month.to);
    await loaded;
    // The screen shows the new period once it has the data the export reads its filter from.
    await expect.poll(() => period.textContent()).not.toBe(before);
    // The button names the first preset the period equals: on the 1st of a month, "Today".
    const named = presetOf(month, Date.now(), timeZone) ?? "thisMonth";
    await expect.poll(async () => (await picker.textContent())?.trim()).toBe(range.presets[named]);

    const exported = page.waitForRequest((request) => request.url().includes("/maintain-service/operation-failure?"));
    await page.getByRole("button", { name: t.operations.export }).click();
    const asked = new URL((await exported).url());
    expect(asked.searchParams.get("from"), asked.href).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(asked.searchParams.get("to")).toMatch(/Z$/);
    const listed = await (await api()).get<{ from: string; to: string }>(`/maintain-service/operation-failure?from=${asked.searchParams.get("from")}&to=${asked.searchParams.get("to")}`);
    // The same period the screen names: its start is the month's first midnight in the operator's zone.
    expect(new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(listed.from))).toBe(`${month.from}, 00:00`);
  });
});

describe("the platform's operator form", () => {
  it("takes the subscription in major units of the operator's currency and sends minor units", async () => {
    await page.context().clearCookies();
    await logIn(page, baseURL, "PLATFORM", "platform", "Platform123");
    await page.waitForURL(`${baseURL}/platform/operator`);
    await visit(page, `${baseURL}/platform/operator/add`);
    await hydrated(page);
    const code = `PK${Date.now().toString(36).toUpperCase()}`;
    await field(page, t.operators.code).fill(code);
    await field(page, t.operators.name).fill(`Picker operator ${code}`);
    await field(page, t.operators.currency).fill("EUR");
    await field(page, t.operators.adminUsername).fill(`${code.toLowerCase()}admin`);
    await field(page, t.operators.adminName).fill("Picker Admin");
    await field(page, t.operators.adminEmail).fill(`${code.toLowerCase()}@example.com`);
    const amount = field(page, p.subscription.label);
    await amount.fill("199.99");
    await page.getByText(p.subscription.hint.replace("{{currency}}", "EUR")).waitFor();

    // Fewer decimals than typed: refused on the field, nothing sent.
    await field(page, t.operators.currencyDecimals).fill("1");
    await page.getByRole("button", { name: t.common.save }).click();
    await page.getByText(formsHelp.formsHelp.money.amount.replace("{{decimals}}", "1")).waitFor();
    await field(page, t.operators.currencyDecimals).fill("");

    const sent = page.waitForRequest((request) => request.method() === "POST" && request.url().includes("/platform/operator/add"));
    await page.getByRole("button", { name: t.common.save }).click();
    expect(JSON.parse((await sent).postData() ?? "{}")).toMatchObject({ code, subscriptionAmount: 19_999, currency: "EUR" });
    await page.getByTestId("initial-password").waitFor();
    await page.getByRole("button", { name: t.common.back }).click();
    await page.waitForURL(`${baseURL}/platform/operator`);

    const id = await page.evaluate(async (c) => {
      const answer = (await (await fetch(`/platform-service/operator?code=${c}`)).json()) as { data: { records: { id: number }[] } };
      return answer.data.records[0].id;
    }, code);
    await visit(page, `${baseURL}/platform/operator/detail/${id}`);
    await page.getByText("199.99 EUR").waitFor();
    await visit(page, `${baseURL}/platform/operator/edit/${id}`);
    await hydrated(page);
    await expect.poll(() => field(page, p.subscription.label).inputValue()).toBe("199.99");
  });
});
