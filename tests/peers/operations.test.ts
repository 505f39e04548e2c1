import { afterEach, describe, expect, it } from "vitest";
import { answering, api, bootedClient, closeClients, newLocation, until } from "./support";

/**
 * Load balancing and firmware reach an ocpp-rpc strict charger: every CALL the server sends
 * passes the official 1.6 schemas, and the charger's notifications move what the console shows
 * (docs/rules/operations.md).
 */
let made = 0;

/** A location with a 50 kW load power and one charger of its own (not enabled: profiles need no acceptance). */
async function siteWithCharger() {
  const a = await api();
  const tag = `${Date.now().toString(36)}${process.pid}${made++}`.toUpperCase();
  const station = await newLocation(`Peer load ${tag}`, { powerLimit: 50, timeZone: "Europe/Warsaw" });
  const serialNumber = `PEER-OPS-${tag}`;
  const point = await a.createPoint({ stationId: station.id, name: serialNumber, serialNumber, pointNo: tag.slice(-16), type: "AC", ratedPower: 22, connectorCount: 2 });
  const key = await a.rotateKey(point.id);
  return { stationId: station.id, pointId: point.id, serialNumber, key };
}

describe("operations reach a strict charger", () => {
  afterEach(closeClients);

  it("load balancing: SetChargingProfile when delivered, ClearChargingProfile when disabled, each shown in the detail", async () => {
    const a = await api();
    const site = await siteWithCharger();
    const { client } = await bootedClient(site.serialNumber, site.key);
    const sets = answering(client, "SetChargingProfile", { status: "Accepted" });
    const clears = answering(client, "ClearChargingProfile", { status: "Accepted" });
    const config = await a.post<{ id: number }>("/station-service/load-balancing", {
      name: "Peer evening cap",
      stationId: site.stationId,
      pointIds: [site.pointId],
      powerLimit: 40,
      stackLevel: 2,
      repeat: "Weekly",
      slots: [{ start: "17:00", end: "21:30", limitKw: 11.5 }],
    });
    await a.post(`/station-service/load-balancing/${config.id}/deliver`);
    const profile = await sets.next();
    expect(profile).toMatchObject({
      connectorId: 0,
      csChargingProfiles: {
        chargingProfileId: config.id,
        stackLevel: 2,
        chargingProfilePurpose: "ChargePointMaxProfile",
        chargingProfileKind: "Recurring",
        recurrencyKind: "Weekly",
        chargingSchedule: {
          duration: 604_800,
          chargingRateUnit: "W",
          chargingSchedulePeriod: [
            { startPeriod: 0, limit: 40_000 },
            { startPeriod: 61_200, limit: 11_500 },
            { startPeriod: 77_400, limit: 40_000 },
          ],
        },
      },
    });
    await until(async () => {
      const detail = await a.get<{ points: { delivery: string }[] }>(`/station-service/load-balancing/${config.id}`);
      return detail.points[0].delivery === "Accepted";
    }, "the delivery accepted");

    await a.put(`/station-service/load-balancing/${config.id}/valid`, { status: "INVALID" });
    expect(await clears.next()).toEqual({ id: config.id });
    await until(async () => {
      const detail = await a.get<{ points: { action: string; delivery: string }[] }>(`/station-service/load-balancing/${config.id}`);
      return detail.points[0].action === "clear" && detail.points[0].delivery === "Accepted";
    }, "the clearing accepted");
    expect(client.validationFailures).toEqual([]);
  });

  it("firmware: UpdateFirmware through the firmware queue, then the charger's FirmwareStatusNotifications move its rollout", async () => {
    const a = await api();
    const site = await siteWithCharger();
    const { client } = await bootedClient(site.serialNumber, site.key);
    const updates = answering(client, "UpdateFirmware", {});
    const version = `peer-${Date.now().toString(36)}-${process.pid}`;
    const firmware = await a.post<{ id: number }>("/maintain-service/firmware", {
      version,
      location: "ftps://firmware.example.com/peer/fw.bin",
      retries: 1,
      retryIntervalS: 30,
    });
    const issued = await a.post<{ rollout: { pointId: number; status: string }[] }>(`/maintain-service/firmware/${firmware.id}/issue`, { pointIds: [site.pointId] });
    expect(issued.rollout).toEqual([expect.objectContaining({ pointId: site.pointId, serialNumber: site.serialNumber, status: "Issued" })]);
    const update = await updates.next();
    expect(update).toMatchObject({ location: "ftps://firmware.example.com/peer/fw.bin", retries: 1, retryInterval: 30 });

    for (const status of ["Downloading", "Downloaded", "Installing", "Installed"] as const) {
      await client.call("FirmwareStatusNotification", { status });
    }
    await client.call("BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "ocpp-rpc strict", firmwareVersion: version });
    // The boot reaches D1 with the charger's next batch of changes (docs/rules/ocpp.md "Hot path").
    await until(async () => {
      const detail = await a.get<{ rollout: { status: string; firmwareVersion: string; bootedSinceIssue: boolean }[] }>(`/maintain-service/firmware/${firmware.id}`);
      return detail.rollout[0].bootedSinceIssue;
    }, "the boot after the update recorded");
    const detail = await a.get<{ rollout: { status: string; firmwareVersion: string; bootedSinceIssue: boolean }[] }>(`/maintain-service/firmware/${firmware.id}`);
    expect(detail.rollout[0]).toMatchObject({ status: "Installed", firmwareVersion: version, bootedSinceIssue: true });
    expect(client.validationFailures).toEqual([]);
  });
});
