import { z } from "zod";
import { invoiceSystemInput, mailSettingsInput, mailTestInput } from "../../../domain/schemas/settings";
import { getMailSettings, testMail, updateMailSettings } from "../../services/mail/mail-settings";
import { getInvoiceSystem, updateInvoiceSystem } from "../../services/settings/invoice-system";
import { getParameterSettings, updateParameterSettings } from "../../services/settings/parameter-settings";
import { resource } from "../resource";

/**
 * The system service (docs/rules/settings.md): parameter settings, mail and the invoice system.
 * A sub-operator's parameter settings are its part of the document, so the body is parsed by the
 * verb, which knows who calls.
 */
const tag = "System service: settings";
const parameterSettings = resource(tag, "/system-service/parameter-settings");
const mail = resource(tag, "/system-service/mail");
const invoiceSystem = resource(tag, "/system-service/invoice-system");

/** Documented as the operator's document; a sub-operator sends its part (docs/rules/settings.md "Sub-operators"). */
const settingsBody = z.record(z.string(), z.unknown()).meta({ description: "The operator's whole document (see parameterSettingsInput); a sub-operator's part" });

export const routes = [
  parameterSettings.get("", "The operator's parameter settings (a sub-operator: its part)", getParameterSettings),
  parameterSettings.put("", "Replace the parameter settings: one validated document; secrets are write-only", updateParameterSettings, settingsBody),
  mail.get("", "The mail server (without its secret) and the SMTP ports to suggest", getMailSettings),
  mail.put("", "Set the mail server: SMTP (not port 25) or Amazon SES", updateMailSettings, mailSettingsInput),
  mail.post("/test", "Send a test mail now: 200, or 409 with the server's refusal", testMail, mailTestInput),
  invoiceSystem.get("", "The Serbian invoice system (without its password)", getInvoiceSystem),
  invoiceSystem.put("", "Set the Serbian invoice system", updateInvoiceSystem, invoiceSystemInput),
];
