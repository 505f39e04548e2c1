import { eq } from "drizzle-orm";
import { operators } from "../../../db/schema";
import { Forbidden } from "../../../domain/errors";
import { carrierInfoInput } from "../../../domain/schemas/platform";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { eipaColumns, operatorDetail } from "./operators";
import { profileColumns } from "./provision";

/**
 * Carrier system › Operator info (`/carrierSystem/carrierInfo`, docs/rules/platform.md "Operator
 * info"): a main operator reads its own record and edits its contact, accounts, branding and EIPA
 * access; what the platform decides (code, edition, validity, subscription, domains) stays read-only.
 * Sub-operators have their own screen (subOperatorInfo).
 */
export const CARRIER_INFO_MENU = "carrier.carrierInfo";

async function ownRow(ctx: UserCtx) {
  if (ctx.operator.kind !== "OPERATOR" || ctx.operator.sub !== 0) throw new Forbidden();
  const [row] = await ctx.db.select().from(operators).where(eq(operators.id, ctx.operator.id)).limit(1);
  return row;
}

/** GET /user-service/operator/info: the operator's own record, settings, domains and owner account. */
export const carrierInfo = verb({ menu: CARRIER_INFO_MENU }, async (ctx) => operatorDetail(ctx, await ownRow(ctx)));

/** PUT /user-service/operator/info (carrierInfoEdit). The EIPA password is write-only: blank keeps it. */
export const updateCarrierInfo = verb({ menu: CARRIER_INFO_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const before = await ownRow(ctx);
  const input = carrierInfoInput.parse(raw);
  const { eipaPassword: _secret, ...logged } = input;
  const columns = { ...profileColumns(input), ...(await eipaColumns(ctx, input)) };
  // The log keeps what changed, never the EIPA password, sealed or not.
  const shown = [...Object.keys(profileColumns(input)), "eipaAccount"] as (keyof typeof before)[];
  await ctx.db.batch([
    ctx.db
      .update(operators)
      .set({ ...columns, updatedAt: new Date(ctx.now()) })
      .where(eq(operators.id, ctx.operator.id)),
    auditRow(ctx, {
      table: "operators",
      module: "carrierInfo",
      type: "UPDATE",
      oldData: Object.fromEntries(shown.map((key) => [key, before[key]])),
      newData: { ...logged, eipaPasswordChanged: Boolean(input.eipaPassword) },
    }),
  ]);
  return operatorDetail(ctx, await ownRow(ctx));
});
