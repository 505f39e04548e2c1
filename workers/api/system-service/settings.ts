import { z } from "zod";
import { invoiceSystemInput, mailSettingsInput, mailTestInput } from "../../../domain/schemas/settings";
import { getMailSettings, testMail, updateMailSettings } from "../../services/mail/mail-settings";
import { getInvoiceSystem, updateInvoiceSystem } from "../../services/settings/invoice-system";
import { getParameterSettings, updateParameterSettings } from "../../services/settings/parameter-settings";
import { route } from "../app";

/**
 * The system service (docs/rules/settings.md): parameter settings, mail and the invoice system.
 * A sub-operator's parameter settings are its part of the document, so the body is parsed by the
 * verb, which knows who calls.
 */
const tag = "System service: settings";

/** Documented as the operator's document; a sub-operator sends its part (docs/rules/settings.md "Sub-operators"). */
const settingsBody = z.record(z.string(), z.unknown()).meta({ description: "The operator's whole document (see parameterSettingsInput); a sub-operator's part" });

export const routes = [
  route(
    { method: "get", path: "/system-service/parameter-settings", summary: "The operator's parameter settings (a sub-operator: its part)", tag, verb: getParameterSettings },
    (ctx) => getParameterSettings(ctx),
  ),
  route(
    {
      method: "put",
      path: "/system-service/parameter-settings",
      summary: "Replace the parameter settings: one validated document; secrets are write-only",
      tag,
      verb: updateParameterSettings,
      body: settingsBody,
    },
    (ctx, { body }) => updateParameterSettings(ctx, body),
  ),
  route({ method: "get", path: "/system-service/mail", summary: "The mail server (without its secret) and the SMTP ports to suggest", tag, verb: getMailSettings }, (ctx) =>
    getMailSettings(ctx),
  ),
  route(
    { method: "put", path: "/system-service/mail", summary: "Set the mail server: SMTP (not port 25) or Amazon SES", tag, verb: updateMailSettings, body: mailSettingsInput },
    (ctx, { body }) => updateMailSettings(ctx, body),
  ),
  route(
    { method: "post", path: "/system-service/mail/test", summary: "Send a test mail now: 200, or 409 with the server's refusal", tag, verb: testMail, body: mailTestInput },
    (ctx, { body }) => testMail(ctx, body),
  ),
  route({ method: "get", path: "/system-service/invoice-system", summary: "The Serbian invoice system (without its password)", tag, verb: getInvoiceSystem }, (ctx) =>
    getInvoiceSystem(ctx),
  ),
  route(
    { method: "put", path: "/system-service/invoice-system", summary: "Set the Serbian invoice system", tag, verb: updateInvoiceSystem, body: invoiceSystemInput },
    (ctx, { body }) => updateInvoiceSystem(ctx, body),
  ),
];
