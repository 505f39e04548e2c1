import { beforeAll, describe, expect, it } from "vitest";
import { makeCharger } from "./support/factories";
import { boot, connect, now, type TestCharger } from "./support/charger";
import { call, tokenFor } from "./support/http";

let charger: TestCharger;

beforeAll(async () => {
  const { serialNumber, key } = await makeCharger("0PL002");
  charger = (await connect(serialNumber, { key })).charger!;
  await boot(charger);
});

const expectError = (frame: unknown[], id: string, code: string) => {
  expect(frame[0]).toBe(4);
  expect(frame[1]).toBe(id);
  expect(frame[2]).toBe(code);
  expect(typeof frame[3]).toBe("string");
  expect(frame[4]).toEqual(expect.any(Object));
  expect(Array.isArray(frame[4])).toBe(false);
};

describe("OCPP-J frames from the charger (OCPP-J 1.6 §4)", () => {
  it("answers text that is not JSON with FormationViolation and id -1", async () => {
    expectError(await charger.raw("this is not json"), "-1", "FormationViolation");
  });

  it("answers JSON that is not a frame with FormationViolation", async () => {
    expectError(await charger.raw('{"hello":1}'), "-1", "FormationViolation");
  });

  it("answers an unknown message type with a protocol error and the id when readable", async () => {
    const frame = await charger.raw('[7,"m1","Heartbeat",{}]');
    expect(frame[0]).toBe(4);
    expect(["ProtocolError", "FormationViolation"]).toContain(frame[2]);
  });

  it("answers an unknown action with NotImplemented", async () => {
    expectError(await charger.raw('[2,"m2","FlyToTheMoon",{}]'), "m2", "NotImplemented");
  });

  it("answers an action only the server sends with NotSupported", async () => {
    expectError(await charger.raw('[2,"m3","Reset",{"type":"Soft"}]'), "m3", "NotSupported");
  });

  it("answers a payload that is not an object with FormationViolation", async () => {
    expectError(await charger.raw('[2,"m4","Heartbeat",[]]'), "m4", "FormationViolation");
    expectError(await charger.raw('[2,"m4b","Authorize","DEMO0001"]'), "m4b", "FormationViolation");
  });

  it("answers a missing required field with OccurenceConstraintViolation", async () => {
    expectError(await charger.raw('[2,"m5","Authorize",{}]'), "m5", "OccurenceConstraintViolation");
  });

  it("answers a wrong JSON type with TypeConstraintViolation", async () => {
    expectError(await charger.raw('[2,"m6","StatusNotification",{"connectorId":"one","errorCode":"NoError","status":"Available"}]'), "m6", "TypeConstraintViolation");
  });

  it("answers a bad enum, length or date-time with PropertyConstraintViolation", async () => {
    expectError(await charger.raw('[2,"m7","StatusNotification",{"connectorId":1,"errorCode":"NoError","status":"Sleeping"}]'), "m7", "PropertyConstraintViolation");
    expectError(await charger.raw(`[2,"m8","Authorize",{"idTag":"${"X".repeat(21)}"}]`), "m8", "PropertyConstraintViolation");
    expectError(
      await charger.raw('[2,"m9","StatusNotification",{"connectorId":1,"errorCode":"NoError","status":"Available","timestamp":"yesterday"}]'),
      "m9",
      "PropertyConstraintViolation",
    );
  });

  it("accepts date-times with any offset", async () => {
    const frame = await charger.raw('[2,"m10","StatusNotification",{"connectorId":1,"errorCode":"NoError","status":"Available","timestamp":"2026-11-21T12:00:00.123+02:00"}]');
    expect(frame).toEqual([3, "m10", {}]);
  });

  it("never answers a CALLRESULT or CALLERROR from the charger, and stays usable after errors", async () => {
    charger.ws.send('[3,"unknown-id",{}]');
    charger.ws.send('[4,"unknown-id","GenericError","",{}]');
    const frame = await charger.raw('[2,"m11","Heartbeat",{}]');
    expect(frame[0]).toBe(3);
    expect(frame[1]).toBe("m11");
  });

  it("answers every CALL exactly once", async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Available", timestamp: now() }).then(() => i)),
    );
    expect(answers).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("OCPP 1.6 errata v4.0 and the 1..* lists", () => {
  it("accepts lower-case t and z in date-times (RFC 3339 §5.6)", async () => {
    const frame = await charger.raw('[2,"e1","StatusNotification",{"connectorId":1,"errorCode":"NoError","status":"Available","timestamp":"2026-11-21t12:00:00.123z"}]');
    expect(frame).toEqual([3, "e1", {}]);
  });

  it("takes a frequency in Hertz and keeps the energy register sent beside it", async () => {
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 2, idTag: "PLREMOTE", meterStart: 1000, timestamp: now() });
    const answer = await charger.call("MeterValues", {
      connectorId: 2,
      transactionId,
      meterValue: [
        {
          timestamp: now().toLowerCase(),
          sampledValue: [
            { value: "50.01", measurand: "Frequency", unit: "Hertz" },
            { value: "2.5", unit: "kWh" },
          ],
        },
      ],
    });
    expect(answer).toEqual({});
    const detail = await call("GET", `/station-service/monitoring/charging/${transactionId}`, { token: await tokenFor("0PL002", "demoadmin") });
    expect(detail.body.data.energyWh).toBe(1500);
    await charger.call("StopTransaction", { transactionId, meterStop: 2500, timestamp: now() });
  });

  it("refuses an empty meterValue or sampledValue with OccurenceConstraintViolation", async () => {
    expectError(await charger.raw('[2,"e2","MeterValues",{"connectorId":1,"meterValue":[]}]'), "e2", "OccurenceConstraintViolation");
    expectError(
      await charger.raw(`[2,"e3","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"${now()}","sampledValue":[]}]}]`),
      "e3",
      "OccurenceConstraintViolation",
    );
  });
});
