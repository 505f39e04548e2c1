import { listCpoSessions } from "../../services/ocpi/cpo/sessions";
import { pagedReply } from "../reply";
import type { OcpiModule } from "../roles";

/** The sessions sender of our CPO side, for eMSPs that pull (OCPI 2.2.1 §9.2.1; docs/rules/ocpi.md "Sessions and CDRs we send"). */
export const cpoSessionsModule: OcpiModule = {
  identifier: "sessions",
  role: "SENDER",
  mount(app, { base }) {
    app.get(base, async (c) => pagedReply(c, await listCpoSessions(c.var.partner, c.req.query())));
  },
};
