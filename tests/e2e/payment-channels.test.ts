import { beforeAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/payments.json";
import { Api } from "../../scripts/sim/register";
import { expectAccessible } from "./support/axe";
import { field, hydrated, logIn, pageOfFile, visit } from "./support/session";

/** The payment channels screen (docs/rules/payments.md "Channels"). */
const baseURL = inject("baseURL");
const c = en.payments.channels;
const DE_ADMIN = { operatorCode: "0DE001", username: "deadmin1", password: "Demo12345" };
const { page } = await pageOfFile();
let api: Api;

beforeAll(async () => {
  api = await Api.login(baseURL, DE_ADMIN);
});

const row = (name: string) => page.getByRole("row").filter({ hasText: name });

describe("payment channels screen", () => {
  it("asks for the type first, saves a Stripe channel with masked credentials, locks it while enabled, and deletes it disabled", async () => {
    await logIn(page, baseURL, DE_ADMIN.operatorCode, DE_ADMIN.username, DE_ADMIN.password);
    await page.waitForURL(/\/home|\/systemMonitoring/);
    await visit(page, `${baseURL}/carrierSystem/paymentChannel`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(c.title);

    await page.getByRole("button", { name: c.add }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => dialog.getByText(en.payments.validation.typeFirst).count()).toBe(1);
    await dialog.getByLabel(c.type).selectOption({ label: "Stripe" });
    await field(page, c.name).fill("Stripe DE");
    // The currency is the operator's main one, preset and read-only.
    expect(await field(page, c.currency).inputValue()).toBe("EUR");
    await field(page, en.payments.credentials.secretApiKey).fill("sk_test_e2eSecretKey4321");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Save" }).click();
    // The webhook secret is missing: the server names the field.
    await expect.poll(() => dialog.getByText(en.payments.validation.credentialRequired).count()).toBe(1);
    await field(page, en.payments.credentials.sharedSecret).fill("whsec_e2eSigningSecret");
    await field(page, en.payments.credentials.secretApiKey).fill("sk_test_e2eSecretKey4321");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByText(c.saved, { exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => row("Stripe DE").count()).toBe(1);

    const [saved] = await api.get<{ id: number; credentials: Record<string, string | null> }[]>("/system-service/payment-channel");
    expect(saved.credentials).toMatchObject({ secretApiKey: "••••4321", sharedSecret: "••••cret" });

    await row("Stripe DE").getByRole("button", { name: c.enable }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: c.enable }).click();
    await expect.poll(() => row("Stripe DE").getByText(c.enabled, { exact: true }).count()).toBe(1);
    await expect.poll(() => row("Stripe DE").getByRole("button", { name: c.delete }).isDisabled()).toBe(true);

    await row("Stripe DE").getByRole("button", { name: c.disable }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: c.disable }).click();
    await expect.poll(() => row("Stripe DE").getByText(c.disabled, { exact: true }).count()).toBe(1);
    await row("Stripe DE").getByRole("button", { name: c.delete }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: c.delete }).click();
    await expect.poll(() => page.getByText(c.empty).count()).toBe(1);
  });
});
