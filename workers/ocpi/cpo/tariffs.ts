import { listPublishedTariffsForPartner } from "../../services/ocpi/cpo-tariffs";
import { pagedReply } from "../reply";
import type { OcpiModule } from "../roles";

/** Our tariffs SENDER (OCPI 2.2.1 §11.2.1; docs/rules/ocpi.md "Tariffs we publish"): the list, paged. */
export const tariffsSender: OcpiModule = {
  identifier: "tariffs",
  role: "SENDER",
  mount(app, { base }) {
    app.get(base, async (c) => pagedReply(c, await listPublishedTariffsForPartner(c.var.partner, c.req.query())));
  },
};
