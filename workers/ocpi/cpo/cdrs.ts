import { listCpoCdrs } from "../../services/ocpi/cpo/cdrs";
import { pagedReply } from "../reply";
import type { OcpiModule } from "../roles";

/** The CDRs sender of our CPO side, for eMSPs that pull (OCPI 2.2.1 §10.2.1; docs/rules/ocpi.md "Sessions and CDRs we send"). */
export const cpoCdrsModule: OcpiModule = {
  identifier: "cdrs",
  role: "SENDER",
  mount(app, { base }) {
    app.get(base, async (c) => pagedReply(c, await listCpoCdrs(c.var.partner, c.req.query())));
  },
};
