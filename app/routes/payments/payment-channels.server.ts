import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { checkAmount, toMinorUnits } from "../../../domain/amounts";
import { Forbidden, Invalid } from "../../../domain/errors";
import { CREDENTIAL_FIELDS } from "../../../domain/schemas/payments";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { createChannel, deleteChannel, enableChannel, listChannels, updateChannel } from "../../../workers/services/payments/channels";
import { listPayments, retryBillPayment } from "../../../workers/services/payments/payments";
import { once } from "../../../workers/services/idempotency";
import { operatorSettings } from "../../../workers/services/settings/parameter-settings";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId, optionalBodyId } from "../../lib/input.server";

/**
 * The payment channels screen (docs/rules/payments.md "Channels"): the operator's channels, its
 * main currency (the only one a channel takes), its Stripe webhook address, and the failed card payments it may retry (when it holds the bills
 * or recharge screen).
 */
export async function loadPaymentChannels({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const channels = await listChannels(ctx);
  let failed: Awaited<ReturnType<typeof listPayments>> | null = null;
  try {
    const url = new URL(request.url);
    failed = await listPayments(ctx, { status: "FAILED", current: url.searchParams.get("current") ?? undefined, size: url.searchParams.get("size") ?? undefined });
  } catch (error) {
    if (!(error instanceof Forbidden)) throw error;
  }
  const origin = new URL(request.url).origin;
  // A channel takes the operator's main currency only (docs/rules/payments.md "Channels"): the form presets it.
  const currency = mainCurrencyOf(await operatorSettings(ctx)).code;
  return {
    channels,
    failed,
    currency,
    webhookUrl: `${origin}/finance-service/payment-webhook/${ctx.operator.code}/stripe`,
    paypalWebhookUrl: `${origin}/finance-service/payment-webhook/${ctx.operator.code}/paypal`,
  };
}

/** An amount typed in major units as minor units; refused on the field when it is not one. */
function minorOf(text: string, decimals: number) {
  if (checkAmount(text, decimals) || text.startsWith("-")) {
    throw new Invalid("formsHelp.money.amount", { decimals }, { minimumValue: "formsHelp.money.amount" });
  }
  return toMinorUnits(text, decimals);
}

/**
 * The body of the channel form: credentials left empty are kept (left out); the minimum value is
 * typed in major units of the main currency and sent in minor units (docs/rules/console.md "Forms").
 */
function channelBody(form: FormData, decimals: number) {
  const text = (name: string) => String(form.get(name) ?? "");
  const credentials = Object.fromEntries(CREDENTIAL_FIELDS.flatMap((f) => (text(`credentials.${f}`) ? [[f, text(`credentials.${f}`)]] : [])));
  return {
    ...(text("type") === "" ? {} : { type: text("type") }),
    name: text("name"),
    environment: text("environment"),
    bankId: text("bankId"),
    bankName: text("bankName"),
    gateway: text("gateway"),
    currentAccount: text("currentAccount"),
    minimumValue: minorOf(text("minimumValue") || "0", decimals),
    currency: text("currency"),
    credentials,
  };
}

/** `intent`: save (create or update), enable, delete, or retry a failed payment's bill. */
export async function paymentChannelAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const id = optionalBodyId(form.get("id"));
    switch (form.get("intent")) {
      case "save": {
        const body = channelBody(form, mainCurrencyOf(await operatorSettings(ctx)).decimals);
        await (id ? updateChannel(ctx, id, body) : createChannel(ctx, body));
        return { ok: true as const, intent: "save" };
      }
      case "enable":
        await enableChannel(ctx, bodyId(id), { enabled: form.get("enabled") === "true" });
        return { ok: true as const, intent: "enable" };
      case "delete":
        await deleteChannel(ctx, bodyId(id));
        return { ok: true as const, intent: "delete" };
      case "retry": {
        // Once per idempotency key (docs/rules/input.md "Idempotency keys").
        const billId = bodyId(id);
        const retry = async () => {
          await retryBillPayment(ctx, billId);
          return { ok: true as const, intent: "retry" };
        };
        return (await once(ctx, request, { intent: "retry", id: billId }, retry)).value;
      }
      default:
        return { ok: false as const, message: "", fields: {} };
    }
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
