import { parameterSettings } from "../../../db/schema";
import { DEFAULT_RETENTION, retentionInput, type Retention } from "../../../domain/retention";
import { settingsOf } from "../../../tenants/resolve";
import { ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { verb } from "../verb";

/**
 * An operator's retention (docs/rules/settings.md "Retention"), kept as the `retention` item of its
 * parameter settings document. The parameter-settings form keeps items it does not show, so a save
 * there leaves it as it was; it has its own endpoint, `GET/PUT /system-service/retention`.
 */
export const RETENTION_MENU = "carrier.parameterSettings";

/** The stored retention, or the defaults for an item never stored (or no longer valid). */
export function retentionOf(document: Record<string, unknown>): Retention {
  const parsed = retentionInput.safeParse(document.retention);
  return parsed.success ? parsed.data : DEFAULT_RETENTION;
}

export const getRetention = verb({ menu: RETENTION_MENU }, async (ctx) => retentionOf((await settingsOf(ctx.db, ctx.operator.id)).document));

/** PUT /system-service/retention: both periods; the settings row's other items stay. */
export const updateRetention = verb({ menu: RETENTION_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = retentionInput.parse(raw);
  const row = await settingsOf(ctx.db, ctx.operator.id);
  const before = retentionOf(row.document);
  const document = { ...row.document, retention: input };
  // An operator that never saved its settings gets its row now, with the values it read so far.
  const { parameters, ...stored } = row;
  void parameters;
  const values = { ...stored, document, updatedAt: new Date(ctx.now()) };
  await ctx.db.batch([
    ctx.db
      .insert(parameterSettings)
      .values(ownedRow(ctx, values))
      .onConflictDoUpdate({ target: parameterSettings.operatorId, set: { document, updatedAt: values.updatedAt } }),
    auditRow(ctx, { table: "parameter_settings", module: "retention", type: "UPDATE", oldData: { retention: before }, newData: { retention: input } }),
  ]);
  return input;
});
