import { beforeAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/payments.json";
import enPayPal from "../../domain/i18n/locales/en/paypal.json";
import { Api } from "../../scripts/sim/register";
import { expectAccessible } from "./support/axe";
import { field, hydrated, logIn, pageOfFile, visit } from "./support/session";

/** A PayPal channel on the payment channels screen (docs/rules/payments.md "PayPal"). */
const baseURL = inject("baseURL");
const c = en.payments.channels;
const p = enPayPal.paypal;
const PL_ADMIN = { operatorCode: "0PL002", username: "demoadmin", password: "Demo12345" };
const { page } = await pageOfFile();
let api: Api;

beforeAll(async () => {
  api = await Api.login(baseURL, PL_ADMIN);
});

const row = (name: string) => page.getByRole("row").filter({ hasText: name });

describe("a PayPal channel", () => {
  it("asks for PayPal's client id, secret and webhook id, saves them masked, and shows the PayPal webhook and the unsupported types", async () => {
    await logIn(page, baseURL, PL_ADMIN.operatorCode, PL_ADMIN.username, PL_ADMIN.password);
    await page.waitForURL(/\/home|\/systemMonitoring/);
    await visit(page, `${baseURL}/carrierSystem/paymentChannel`);
    await hydrated(page);
    await expect.poll(() => page.getByText(p.channels.adapters.replace("{{types}}", "PSiGate, GlobalPayments, KKB, Cardcom, HUB2, MPU, MSU")).count()).toBe(1);
    await expect.poll(() => page.getByText("/finance-service/payment-webhook/0PL002/paypal").count()).toBe(1);

    await page.getByRole("button", { name: c.add }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(c.type).selectOption({ label: "PayPal" });
    await expect.poll(() => dialog.getByText(p.channels.environmentHint).count()).toBe(1);
    await field(page, c.name).fill("PayPal e2e");
    await field(page, p.credentials.clientId).fill("AplugdeskE2EClient0001");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Save" }).click();
    // The secret is missing: the server names the field.
    await expect.poll(() => dialog.getByText(en.payments.validation.credentialRequired).count()).toBe(1);
    await field(page, p.credentials.clientId).fill("AplugdeskE2EClient0001");
    await field(page, p.credentials.secret).fill("EplugdeskE2ESecret9876");
    await field(page, p.credentials.webhookId).fill("WHE2EPAYPAL00042");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByText(c.saved, { exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => row("PayPal e2e").count()).toBe(1);

    const channels = await api.get<{ id: number; type: number; environment: string; credentials: Record<string, string | null> }[]>("/system-service/payment-channel");
    const saved = channels.find((ch) => ch.type === 0)!;
    expect(saved).toMatchObject({ environment: "sandbox", credentials: { clientId: "••••0001", secret: "••••9876", webhookId: "••••0042" } });

    await row("PayPal e2e").getByRole("button", { name: c.delete }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: c.delete }).click();
    await expect.poll(() => row("PayPal e2e").count()).toBe(0);
  });
});
