import type { Language } from "../../../domain/languages";
import { outboxMessage } from "../../../domain/schemas/outbox";
import { reportError } from "../../http/report-error";
import { sealContext, seal, unseal } from "../../auth/sealed";
import type { Ctx, SystemCtx, UserCtx } from "../context";
import { verb } from "../verb";
import { mailTransportOf } from "./mail-settings";
import { renderMail, type MailRequest, type MailTemplate } from "./templates";
import { deliver, type OutgoingMail } from "./transport";

/**
 * The mail API other modules call (docs/rules/settings.md "Mail"): `sendMail` renders a template
 * in the reader's language and puts it on the outbox queue, sealed; the queue's consumer delivers
 * it through the operator's server and retries on failure. An operator without a mail server
 * sends nothing, and the caller learns it (the console still shows an initial password once).
 */

const mailContext = (operatorId: number) => sealContext(operatorId, "mail.message");

export async function sendMail<T extends MailTemplate>(ctx: Ctx, request: MailRequest<T>): Promise<{ queued: boolean }> {
  if (!(await mailTransportOf(ctx))) return { queued: false };
  const mail = await renderMail(ctx, request);
  const message = outboxMessage.parse({
    kind: "mail",
    operatorId: ctx.operator.id,
    operatorCode: ctx.operator.code,
    sealed: await seal(ctx.env, mailContext(ctx.operator.id), JSON.stringify(mail)),
  });
  await ctx.env.OUTBOX.send(message);
  return { queued: true };
}

/**
 * Mails a new account's initial password, with the login page of the operator it belongs to
 * (docs/rules/settings.md "Mail"): only when the account has an email and the sender (`ctx`'s
 * operator) a mail server. The account exists either way and the console shows the password once,
 * so a mail that cannot be queued is reported, never thrown. Answers whether it was queued.
 */
export async function mailInitialPassword(
  ctx: UserCtx,
  account: { to: string | null; username: string; password: string; operatorCode: string; lang?: Language },
): Promise<boolean> {
  if (!account.to) return false;
  try {
    const loginUrl = `${ctx.request.origin ?? ""}/${account.operatorCode}/login`;
    const params = { username: account.username, password: account.password, loginUrl, operator: account.operatorCode };
    return (await sendMail(ctx, { to: account.to, template: "initialPassword", params, lang: account.lang })).queued;
  } catch (error) {
    reportError("mail", error, { template: "initialPassword" });
    return false;
  }
}

/** The consumer's half: open the sealed mail and hand it to the operator's server (throws to be retried). */
export const deliverQueuedMail = verb({ actors: ["system"] }, async (ctx: SystemCtx, sealed: string) => {
  const transport = await mailTransportOf(ctx);
  // No mail server any more (its row gone since the mail was queued): retrying cannot help.
  if (!transport) return { delivered: false as const };
  const mail = JSON.parse(await unseal(ctx.env, mailContext(ctx.operator.id), sealed)) as OutgoingMail;
  await deliver(transport, mail);
  return { delivered: true as const, to: mail.to };
});
