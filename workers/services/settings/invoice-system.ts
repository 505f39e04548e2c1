import { invoiceSystems } from "../../../db/schema";
import { invoiceSystemInput } from "../../../domain/schemas/settings";
import { secretsKept } from "../../../domain/secret-destinations";
import { owned, ownedRow } from "../../../tenants/scope";
import { nextSecret, sealContext, unseal } from "../../auth/sealed";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { verb } from "../verb";
import { SETTINGS_MENU } from "./parameter-settings";

/**
 * The Serbian invoice system (docs/rules/settings.md "Invoice system"): where an operator's settled
 * charge records are sent as fiscal invoice requests. `GET/PUT /system-service/invoice-system`;
 * the password is sealed and never answered. The system's client certificate cannot be presented
 * per operator from a Worker (docs/decisions/0039-invoice-system-without-client-certificates.md).
 */

type Row = typeof invoiceSystems.$inferSelect;

const passwordContext = (operatorId: number) => sealContext(operatorId, "invoiceSystem.password");

async function rowOf(ctx: Pick<Ctx, "db" | "operator">) {
  const [row] = await ctx.db.select().from(invoiceSystems).where(owned(ctx, invoiceSystems)).limit(1);
  return row;
}

const view = (row: Row | undefined) => ({
  enabled: row?.enabled ?? false,
  url: row?.url ?? null,
  account: row?.account ?? "",
  password: null,
  passwordSet: Boolean(row?.password),
  pac: row?.pac ?? "",
});

/** The operator's invoice system with its password opened, or null when it has none. */
export async function invoiceSystemOf(ctx: Pick<Ctx, "db" | "env" | "operator">) {
  const row = await rowOf(ctx);
  if (!row) return null;
  return { ...row, password: row.password ? await unseal(ctx.env, passwordContext(ctx.operator.id), row.password) : null };
}

/** GET /system-service/invoice-system. */
export const getInvoiceSystem = verb({ menu: SETTINGS_MENU }, async (ctx) => view(await rowOf(ctx)));

/** PUT /system-service/invoice-system. */
export const updateInvoiceSystem = verb({ menu: SETTINGS_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = invoiceSystemInput.parse(raw);
  const before = await rowOf(ctx);
  // The password goes with the URL it was entered for (docs/rules/settings.md "Secrets at rest").
  const stored = secretsKept(before && [before.url], [input.url], before?.password ?? null, null);
  const values = {
    enabled: input.enabled,
    url: input.url,
    account: input.account,
    pac: input.pac,
    password: await nextSecret(ctx.env, passwordContext(ctx.operator.id), input.password, stored),
    updatedAt: new Date(ctx.now()),
  };
  const after = { ...values, operatorId: ctx.operator.id };
  await ctx.db.batch([
    ctx.db.insert(invoiceSystems).values(ownedRow(ctx, values)).onConflictDoUpdate({ target: invoiceSystems.operatorId, set: values }),
    auditRow(ctx, { table: "invoice_systems", module: "settings", type: before ? "UPDATE" : "CREATE", oldData: view(before), newData: view(after) }),
  ]);
  return view(after);
});
