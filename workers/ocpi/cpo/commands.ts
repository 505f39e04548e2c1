import { OCPI_STATUS } from "../../../domain/schemas/ocpi/common";
import { OcpiError } from "../../../domain/ocpi/wire";
import { COMMAND_TIMEOUT_S, receiveCommand } from "../../services/ocpi/cpo/commands";
import { ocpiBody, reply } from "../reply";
import type { OcpiModule } from "../roles";

/** The commands receiver of our CPO side (OCPI 2.2.1 §13.2.1; docs/rules/ocpi.md "Commands we take"). */
export const cpoCommandsModule: OcpiModule = {
  identifier: "commands",
  role: "RECEIVER",
  mount(app, { base, send }) {
    app.post(`${base}/:command{[A-Z_]+}`, async (c) => reply(c, await receiveCommand(c.var.partner, c.req.param("command"), await ocpiBody(c), send)));
  },
};

/**
 * The charging profiles receiver (OCPI 2.2.1 §19.2.2): listed so that eMSPs know, and every call
 * answered NOT_SUPPORTED for now (docs/rules/ocpi.md "Commands we take").
 */
export const cpoChargingProfilesModule: OcpiModule = {
  identifier: "chargingprofiles",
  role: "RECEIVER",
  mount(app, { base }) {
    const notSupported = { result: "NOT_SUPPORTED", timeout: COMMAND_TIMEOUT_S };
    app.get(`${base}/:sessionId`, (c) => reply(c, notSupported));
    app.put(`${base}/:sessionId`, (c) => reply(c, notSupported));
    app.delete(`${base}/:sessionId`, (c) => reply(c, notSupported));
    app.all(base, () => {
      throw new OcpiError(404, OCPI_STATUS.clientError, "Name a session");
    });
  },
};
