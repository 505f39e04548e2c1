import { afterEach, describe, expect, it } from "vitest";
import { DEMO_CHARGER_KEY } from "../../db/seed";
import { bootedClient, closeClients, newCharger } from "./support";
import { exclusively } from "../e2e/support/exclusive";

exclusively("charger DE001-CP01");

describe("Authorize (ocpp-rpc strict client)", () => {
  afterEach(closeClients);

  it("answers each demo tag of 0PL002 with its status, and tags it does not know (or another operator's) as Invalid", async () => {
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const statusOf = async (idTag: string) => (await client.call("Authorize", { idTag })).idTagInfo.status;

    expect(await statusOf("DEMO0001")).toBe("Accepted");
    expect(await statusOf("DEMO0002")).toBe("Blocked");
    expect(await statusOf("DEMO0003")).toBe("Expired");
    expect(await statusOf("PLREMOTE")).toBe("Accepted");
    expect(await statusOf("NOSUCHTAG")).toBe("Invalid");
    // Tags belong to their operator: 0DE001's tag means nothing to a 0PL002 charger.
    expect(await statusOf("DEDEMO01")).toBe("Invalid");

    const expired = await client.call("Authorize", { idTag: "DEMO0003" });
    expect(expired.idTagInfo.expiryDate).toBe("2025-01-01T00:00:00.000Z");
    expect(client.validationFailures).toEqual([]);
  });

  it("answers 0DE001's tag on 0DE001's charger", async () => {
    const { client } = await bootedClient("DE001-CP01", DEMO_CHARGER_KEY);
    expect((await client.call("Authorize", { idTag: "DEDEMO01" })).idTagInfo.status).toBe("Accepted");
    expect((await client.call("Authorize", { idTag: "DEMO0001" })).idTagInfo.status).toBe("Invalid");
    expect(client.validationFailures).toEqual([]);
  });
});
