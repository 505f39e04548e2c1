import { getPublishedObject, listPublishedLocationsForPartner } from "../../services/ocpi/cpo-locations";
import { pagedReply, reply } from "../reply";
import type { OcpiModule } from "../roles";

/**
 * Our locations SENDER (OCPI 2.2.1 §8.2.1; docs/rules/ocpi.md "Locations we publish"): the list,
 * paged, and single objects by `{location_id}[/{evse_uid}[/{connector_id}]]`.
 */
export const locationsSender: OcpiModule = {
  identifier: "locations",
  role: "SENDER",
  mount(app, { base }) {
    app.get(base, async (c) => pagedReply(c, await listPublishedLocationsForPartner(c.var.partner, c.req.query())));
    app.get(`${base}/:id`, async (c) => reply(c, await getPublishedObject(c.var.partner, { id: c.req.param("id") })));
    app.get(`${base}/:id/:evse`, async (c) => reply(c, await getPublishedObject(c.var.partner, { id: c.req.param("id"), evseUid: c.req.param("evse") })));
    app.get(`${base}/:id/:evse/:connector`, async (c) =>
      reply(c, await getPublishedObject(c.var.partner, { id: c.req.param("id"), evseUid: c.req.param("evse"), connectorId: c.req.param("connector") })),
    );
  },
};
