import type { Context } from "hono";
import { getCpoToken, patchCpoToken, putCpoToken, type TokenPath } from "../../services/ocpi/cpo/tokens";
import { STALE } from "../../services/ocpi/receivers";
import { ocpiBody, reply, type OcpiEnv } from "../reply";
import type { OcpiModule } from "../roles";

/** The tokens receiver of our CPO side (OCPI 2.2.1 §12.2.2; docs/rules/ocpi.md "Partners' drivers at our chargers"). */
const pathOf = (c: Context<OcpiEnv>): TokenPath => ({ countryCode: c.req.param("cc")!, partyId: c.req.param("pid")!, uid: c.req.param("uid")!, type: c.req.query("type") });

export const cpoTokensModule: OcpiModule = {
  identifier: "tokens",
  role: "RECEIVER",
  mount(app, { base }) {
    const path = `${base}/:cc/:pid/:uid`;
    app.get(path, async (c) => reply(c, await getCpoToken(c.var.partner, pathOf(c))));
    app.put(path, async (c) => reply(c, undefined, (await putCpoToken(c.var.partner, pathOf(c), await ocpiBody(c))).applied ? undefined : STALE));
    app.patch(path, async (c) => reply(c, undefined, (await patchCpoToken(c.var.partner, pathOf(c), await ocpiBody(c))).applied ? undefined : STALE));
  },
};
