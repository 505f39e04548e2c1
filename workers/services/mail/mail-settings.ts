import { asc } from "drizzle-orm";
import { mailSettings, operatorDomains } from "../../../db/schema";
import { Conflict, Forbidden, Invalid } from "../../../domain/errors";
import { isSuper } from "../../../tenants/permissions";
import { mailSettingsInput, mailTestInput, type MailSettingsInput } from "../../../domain/schemas/settings";
import { secretsKept } from "../../../domain/secret-destinations";
import { owned, ownedRow } from "../../../tenants/scope";
import { nextSecret, sealContext, unseal } from "../../auth/sealed";
import { auditRow } from "../audit";
import type { Ctx, UserCtx } from "../context";
import { SETTINGS_MENU } from "../settings/parameter-settings";
import { verb } from "../verb";
import { renderMail } from "./templates";
import { deliver, MailRefused, type MailTransport } from "./transport";

/**
 * The operator's mail server (docs/rules/settings.md "Mail"): `GET/PUT /system-service/mail` and a
 * test send, `POST /system-service/mail/test`. The password (or SES secret key) is sealed at rest
 * and never answered.
 */

type Row = typeof mailSettings.$inferSelect;

/** Ports a Worker can reach for SMTP submission: 587 with STARTTLS, 465 with TLS. */
export const SUGGESTED_SMTP_PORTS = [587, 465] as const;

const secretContext = (operatorId: number) => sealContext(operatorId, "mail.secret");

async function rowOf(ctx: Pick<Ctx, "db" | "operator">): Promise<Row | undefined> {
  const [row] = await ctx.db.select().from(mailSettings).where(owned(ctx, mailSettings)).limit(1);
  return row;
}

function view(row: Row | undefined) {
  if (!row) return null;
  const secretSet = row.secret !== null;
  return row.type === "SMTP"
    ? { type: row.type, host: row.host, port: row.port, username: row.username ?? "", password: null, passwordSet: secretSet, from: row.from, tlsMode: row.tlsMode }
    : { type: row.type, region: row.region, accessKeyId: row.accessKeyId, secretAccessKey: null, secretAccessKeySet: secretSet, from: row.from, endpoint: row.endpoint };
}

/** The operator's transport with its secret opened, or null when it has none. */
export async function mailTransportOf(ctx: Pick<Ctx, "db" | "env" | "operator">): Promise<MailTransport | null> {
  const row = await rowOf(ctx);
  if (!row) return null;
  const secret = row.secret ? await unseal(ctx.env, secretContext(ctx.operator.id), row.secret) : null;
  if (row.type === "SMTP") {
    return { type: "SMTP", host: row.host ?? "", port: row.port ?? 587, username: row.username ?? "", password: secret, tlsMode: row.tlsMode ?? "STARTTLS", from: row.from };
  }
  return { type: "AMAZON", region: row.region ?? "", accessKeyId: row.accessKeyId ?? "", secretAccessKey: secret ?? "", endpoint: row.endpoint, from: row.from };
}

/**
 * Where links in mails point (docs/rules/settings.md "Mail"): the operator's first branded domain,
 * else the address its mail settings were saved from; null when neither is known.
 */
export async function linkOriginOf(ctx: Pick<Ctx, "db" | "operator">): Promise<string | null> {
  const [domain] = await ctx.db.select({ domain: operatorDomains.domain }).from(operatorDomains).where(owned(ctx, operatorDomains)).orderBy(asc(operatorDomains.id)).limit(1);
  if (domain) return `https://${domain.domain}`;
  return (await rowOf(ctx))?.linkOrigin ?? null;
}

/**
 * The operator's parameter-settings screen holds its mail server; the platform's mail screen
 * holds the platform's, which mails the initial passwords of the operators it provisions
 * (docs/rules/platform.md "Provisioning").
 */
export const PLATFORM_MAIL_MENU = "platform.mail";
const MAIL_MENUS = [SETTINGS_MENU, PLATFORM_MAIL_MENU];

/** The platform's mail server is its SUPER accounts' alone (docs/rules/platform.md "The platform's menus"). */
function requireMailOwner(ctx: UserCtx) {
  if (ctx.operator.kind === "PLATFORM" && !isSuper(ctx.actor)) throw new Forbidden("errors.superOnly");
}

/**
 * Where the secret is sent (docs/rules/settings.md "Secrets at rest"): its kind of server, and
 * the SMTP host, or SES's region and endpoint. The port is not: another port of the same host is
 * the same server.
 */
const destinationOf = (row: Pick<Row, "type" | "host" | "region" | "endpoint"> | MailSettingsInput) =>
  row.type === "SMTP" ? [row.type, row.host?.toLowerCase()] : [row.type, row.region, row.endpoint];

/** GET /system-service/mail: the settings without their secret (null when none), and the ports to suggest. */
export const getMailSettings = verb({ menu: MAIL_MENUS }, async (ctx) => {
  requireMailOwner(ctx);
  return { settings: view(await rowOf(ctx)), suggestedPorts: [...SUGGESTED_SMTP_PORTS] };
});

/** PUT /system-service/mail. */
export const updateMailSettings = verb({ menu: MAIL_MENUS, mutates: true }, async (ctx, raw: unknown) => {
  requireMailOwner(ctx);
  const input = mailSettingsInput.parse(raw);
  const before = await rowOf(ctx);
  // A secret belongs to its server: another kind, host or endpoint needs it entered again.
  const stored = secretsKept(before && destinationOf(before), destinationOf(input), before?.secret ?? null, null);
  const given = input.type === "SMTP" ? input.password : input.secretAccessKey;
  const secret = await nextSecret(ctx.env, secretContext(ctx.operator.id), given, stored);
  if (input.type === "AMAZON" && !secret) {
    throw new Invalid("settings.validation.secretAccessKey", {}, { secretAccessKey: "settings.validation.secretAccessKey" });
  }
  const columns =
    input.type === "SMTP"
      ? { type: input.type, host: input.host, port: input.port, username: input.username, tlsMode: input.tlsMode, region: null, accessKeyId: null, endpoint: null }
      : { type: input.type, host: null, port: null, username: null, tlsMode: null, region: input.region, accessKeyId: input.accessKeyId, endpoint: input.endpoint ?? null };
  // Jobs that mail links later have no request: they use the address the settings were saved from.
  const linkOrigin = ctx.request.origin ?? before?.linkOrigin ?? null;
  const values = { ...columns, from: input.from, secret, linkOrigin, updatedAt: new Date(ctx.now()) };
  const after = { ...values, operatorId: ctx.operator.id } as Row;
  await ctx.db.batch([
    ctx.db.insert(mailSettings).values(ownedRow(ctx, values)).onConflictDoUpdate({ target: mailSettings.operatorId, set: values }),
    auditRow(ctx, { table: "mail_settings", module: "settings", type: before ? "UPDATE" : "CREATE", oldData: view(before), newData: view(after) }),
  ]);
  return view(after);
});

/**
 * POST /system-service/mail/test {to}: a short message in the operator's language, sent now
 * (not queued) so that the answer says whether the server took it: 200, or 409 with its refusal.
 */
export const testMail = verb({ menu: MAIL_MENUS, mutates: true }, async (ctx, raw: unknown) => {
  requireMailOwner(ctx);
  const { to } = mailTestInput.parse(raw);
  const transport = await mailTransportOf(ctx);
  if (!transport) throw new Conflict("settings.errors.mailNotConfigured");
  const mail = await renderMail(ctx, { to, template: "test", params: {} });
  try {
    await deliver(transport, mail);
  } catch (error) {
    if (error instanceof MailRefused) throw new Conflict("settings.errors.mailRefused", { reason: error.message }, { reason: error.message });
    throw error;
  }
  return { sent: true, to };
});
