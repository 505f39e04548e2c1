import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/ocpi-commands.json";
import { envelopeOf } from "../../domain/ocpi/wire";
import { DEFAULT_COMMAND_TIMEOUT_S } from "../../domain/schemas/ocpi/commands";
import { sendCommand } from "../../workers/services/ocpi/commands";
import { unregisterPlatform } from "../../workers/services/ocpi/platforms";
import { makeCardRow, makeCustomerRow, operatorIdOf } from "./support/driver-rows";
import { tokenWithMenus } from "./support/factories";
import { ocpi, postCommandResult } from "./support/fake-cpo";
import { call, ORIGIN, tokenFor } from "./support/http";
import { registeredPartner, setOcpiIdentity, userCtxOf } from "./support/ocpi-partners";

/** Commands, of which we are the sender (docs/rules/ocpi.md "Commands", OCPI 2.2.1 §13). */
const { httpOrigin } = inject("fakes");
let admin: string;
let other: string;
/** A card of a customer in good standing: the registry allows it. */
let card: string;

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const send = async (body: Record<string, unknown>, handler: Parameters<typeof sendCommand>[2]) => sendCommand(await userCtxOf(admin), body, handler);
const uidOf = (responseUrl: string) => responseUrl.split("/").at(-1)!;

/** Points the platform's commands receiver somewhere else (the local fake HTTP server), or drops it. */
async function moveCommandsEndpoint(platformId: number, url: string | null) {
  const row = await env.DB.prepare("SELECT endpoints FROM ocpi_platforms WHERE id = ?").bind(platformId).first<{ endpoints: string }>();
  const endpoints = (JSON.parse(row!.endpoints) as { identifier: string; role: string; url: string }[]).filter((e) => !(e.identifier === "commands" && e.role === "RECEIVER"));
  if (url) endpoints.push({ identifier: "commands", role: "RECEIVER", url });
  await env.DB.prepare("UPDATE ocpi_platforms SET endpoints = ? WHERE id = ?").bind(JSON.stringify(endpoints), platformId).run();
}

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  other = await tokenFor("0DE001", "deadmin1");
  await setOcpiIdentity("0PL002", { countryCode: "PL", partyId: "PLG" });
  const driver = await makeCustomerRow("0PL002");
  card = (await makeCardRow("0PL002", driver.id)).idTag;
});
afterAll(() => setOcpiIdentity("0PL002", { countryCode: null, partyId: null }));

describe("sending commands to the CPO's commands receiver", () => {
  it("lists our commands sender in the version details", async () => {
    const { token } = await registeredPartner(admin);
    expect((await ocpi("GET", "/ocpi/2.2.1", { token })).body.data.endpoints).toContainEqual({ identifier: "commands", role: "SENDER", url: `${ORIGIN}/ocpi/2.2.1/commands` });
  });

  it("sends START_SESSION with our authorized token and a response_url naming the command, and records the CommandResponse", async () => {
    const { cpo, id } = await registeredPartner(admin);
    const sent = await send({ platformId: id, command: "START_SESSION", tokenUid: card, locationId: "LOC1", evseUid: "E1", connectorId: "1" }, cpo.handler);
    const received = cpo.state.received.at(-1)!;
    expect(received).toMatchObject({ method: "POST", path: "/ocpi/2.2.1/commands/START_SESSION", authorization: `Token ${btoa(cpo.state.tokenC)}` });
    expect(received.headers.get("OCPI-to-country-code")).toBe("DE");
    expect(received.headers.get("OCPI-to-party-id")).toBe("CPO");
    expect(received.headers.get("OCPI-from-party-id")).toBe("PLG");
    const body = cpo.state.commands.at(-1)!.body;
    expect(body).toEqual({
      response_url: `${ORIGIN}/ocpi/2.2.1/commands/START_SESSION/${sent.uid}`,
      token: expect.objectContaining({ country_code: "PL", party_id: "PLG", uid: card, type: "RFID", valid: true, whitelist: "ALWAYS" }),
      location_id: "LOC1",
      evse_uid: "E1",
      connector_id: "1",
      authorization_reference: sent.uid,
    });
    expect(sent).toMatchObject({ platformId: id, command: "START_SESSION", locationId: "LOC1", tokenUid: card, responseResult: "ACCEPTED", responseTimeout: 30, result: null, sendError: null });
    expect(Date.parse(sent.deadline!) - Date.parse(sent.createdAt)).toBeGreaterThanOrEqual(29_000);
    const got = await call("GET", `/ocpi-service/command/${sent.id}`, { token: admin });
    expect(got.body.data).toMatchObject({ id: sent.id, request: body, responseResult: "ACCEPTED" });
  });

  it("sends STOP_SESSION, RESERVE_NOW, CANCEL_RESERVATION and UNLOCK_CONNECTOR with their objects, and records each answer", async () => {
    const { cpo, id } = await registeredPartner(admin);
    cpo.state.commandAnswers.push(
      { data: { result: "UNKNOWN_SESSION", timeout: 10, message: [{ language: "en", text: "No such session" }] } },
      { data: { result: "ACCEPTED", timeout: 60 } },
      { data: { result: "ACCEPTED", timeout: 60 } },
      { data: { result: "NOT_SUPPORTED", timeout: 5 } },
    );
    const stop = await send({ platformId: id, command: "STOP_SESSION", sessionId: "S-77" }, cpo.handler);
    expect(cpo.state.commands.at(-1)).toEqual({ command: "STOP_SESSION", body: { response_url: `${ORIGIN}/ocpi/2.2.1/commands/STOP_SESSION/${stop.uid}`, session_id: "S-77" } });
    expect(stop).toMatchObject({ sessionId: "S-77", responseResult: "UNKNOWN_SESSION", responseMessage: [{ language: "en", text: "No such session" }] });

    const expiry = inAnHour();
    const reserve = await send({ platformId: id, command: "RESERVE_NOW", tokenUid: card, locationId: "LOC1", evseUid: "E2", expiryDate: expiry }, cpo.handler);
    expect(cpo.state.commands.at(-1)!.body).toEqual({
      response_url: `${ORIGIN}/ocpi/2.2.1/commands/RESERVE_NOW/${reserve.uid}`,
      token: expect.objectContaining({ uid: card }),
      expiry_date: expiry.replace(/\.\d{3}Z$/, "Z"),
      reservation_id: reserve.uid,
      location_id: "LOC1",
      evse_uid: "E2",
      authorization_reference: reserve.uid,
    });
    expect(reserve).toMatchObject({ reservationId: reserve.uid, responseResult: "ACCEPTED" });

    const cancel = await send({ platformId: id, command: "CANCEL_RESERVATION", reservationId: reserve.uid }, cpo.handler);
    expect(cpo.state.commands.at(-1)!.body).toEqual({ response_url: `${ORIGIN}/ocpi/2.2.1/commands/CANCEL_RESERVATION/${cancel.uid}`, reservation_id: reserve.uid });
    // Only a reservation we made at this partner can be cancelled or replaced.
    await expect(send({ platformId: id, command: "CANCEL_RESERVATION", reservationId: "NOT-OURS" }, cpo.handler)).rejects.toMatchObject({
      status: 400,
      fields: { reservationId: "ocpiCommands.validation.unknownReservation" },
    });

    const unlock = await send({ platformId: id, command: "UNLOCK_CONNECTOR", locationId: "LOC1", evseUid: "E1", connectorId: "2" }, cpo.handler);
    expect(cpo.state.commands.at(-1)!.body).toEqual({ response_url: `${ORIGIN}/ocpi/2.2.1/commands/UNLOCK_CONNECTOR/${unlock.uid}`, location_id: "LOC1", evse_uid: "E1", connector_id: "2" });
    expect(unlock.responseResult).toBe("NOT_SUPPORTED");
    expect(cpo.state.commands.map((c) => c.command)).toEqual(["STOP_SESSION", "RESERVE_NOW", "CANCEL_RESERVATION", "UNLOCK_CONNECTOR"]);
  });

  it("records a failed call with the partner's reason, and never sends a token the registry refuses", async () => {
    const { cpo, id } = await registeredPartner(admin);
    cpo.state.commandAnswers.push({ status: 400, code: 2001, data: undefined });
    await expect(send({ platformId: id, command: "STOP_SESSION", sessionId: "S-1" }, cpo.handler)).rejects.toMatchObject({ status: 409, key: "ocpiCommands.errors.sendFailed" });
    const failed = await call("GET", `/ocpi-service/command?platformId=${id}`, { token: admin });
    expect(failed.body.data.records).toMatchObject([{ command: "STOP_SESSION", responseResult: null, result: null }]);
    expect(failed.body.data.records[0].sendError).toContain("2001");
    // A malformed CommandResponse is the partner's failure too.
    cpo.state.commandAnswers.push({ data: { result: "MAYBE", timeout: 1 } });
    await expect(send({ platformId: id, command: "STOP_SESSION", sessionId: "S-2" }, cpo.handler)).rejects.toMatchObject({ status: 409 });
    const blocked = (await makeCardRow("0PL002", (await makeCustomerRow("0PL002")).id, { status: "BLOCKED" })).idTag;
    const before = cpo.state.commands.length;
    await expect(send({ platformId: id, command: "START_SESSION", tokenUid: blocked, locationId: "LOC1" }, cpo.handler)).rejects.toMatchObject({
      status: 409,
      key: "ocpiCommands.errors.tokenRefused",
      params: { allowed: "BLOCKED" },
    });
    const foreign = (await makeCardRow("0DE001", null)).idTag;
    await expect(send({ platformId: id, command: "RESERVE_NOW", tokenUid: foreign, locationId: "LOC1", expiryDate: inAnHour() }, cpo.handler)).rejects.toMatchObject({
      status: 400,
      fields: { tokenUid: "ocpiCommands.validation.unknownToken" },
    });
    expect(cpo.state.commands.length).toBe(before);
  });
});

describe("the asynchronous CommandResult", () => {
  it("is taken from the partner the command went to, once; another partner's, an unknown uid or a bad body is refused", async () => {
    const { cpo, id } = await registeredPartner(admin);
    const sent = await send({ platformId: id, command: "START_SESSION", tokenUid: card, locationId: "LOC1" }, cpo.handler);
    const url = cpo.state.commands.at(-1)!.body.response_url as string;
    const stranger = await registeredPartner(admin);
    const foreign = await postCommandResult(stranger.cpo, url, { result: "ACCEPTED" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.status_code).toBe(2000);
    expect((await postCommandResult(cpo, url.replace(uidOf(url), crypto.randomUUID()), { result: "ACCEPTED" })).status).toBe(404);
    expect((await postCommandResult(cpo, url.replace("START_SESSION", "STOP_SESSION"), { result: "ACCEPTED" })).status).toBe(404);
    const bad = await postCommandResult(cpo, url, { result: "MAYBE" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status_code: 2001 });
    expect(bad.body.status_message).toContain("result");
    expect((await postCommandResult(cpo, url, { result: "ACCEPTED" }, "no-such-token")).status).toBe(401);
    expect((await call("GET", `/ocpi-service/command/${sent.id}`, { token: admin })).body.data.result).toBeNull();

    const first = await postCommandResult(cpo, url, { result: "EVSE_OCCUPIED", message: [{ language: "en", text: "Another car is charging" }] });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status_code: 1000 });
    expect(first.body.status_message).toBeUndefined();
    const again = await postCommandResult(cpo, url, { result: "ACCEPTED" });
    expect(again.body.status_code).toBe(1000);
    expect(again.body.status_message).toContain("first result is kept");
    const got = (await call("GET", `/ocpi-service/command/${sent.id}`, { token: admin })).body.data;
    expect(got).toMatchObject({ result: "EVSE_OCCUPIED", resultMessage: [{ language: "en", text: "Another car is charging" }], timedOut: false });
    expect(got.resultAt).not.toBeNull();
  });

  it("takes a result with fields 2.2.1 does not define, and a CommandResponse without timeout with the default", async () => {
    const { cpo, id } = await registeredPartner(admin);
    // A 2.1.1-era CPO answers without `timeout`, and adds fields of its own.
    cpo.state.commandAnswers.push({ data: { result: "ACCEPTED", x_queue: 2 } });
    const sent = await send({ platformId: id, command: "STOP_SESSION", sessionId: "S-legacy" }, cpo.handler);
    expect(sent).toMatchObject({ responseResult: "ACCEPTED", responseTimeout: DEFAULT_COMMAND_TIMEOUT_S, sendError: null });
    expect(Date.parse(sent.deadline!) - Date.parse(sent.createdAt)).toBeGreaterThanOrEqual(DEFAULT_COMMAND_TIMEOUT_S * 1000 - 1000);
    const url = cpo.state.commands.at(-1)!.body.response_url as string;
    const result = await postCommandResult(cpo, url, { result: "ACCEPTED", message: [{ language: "en", text: "Stopped", x_code: 7 }], x_charger: "CP-1" });
    expect(result.body).toMatchObject({ status_code: 1000 });
    expect((await call("GET", `/ocpi-service/command/${sent.id}`, { token: admin })).body.data).toMatchObject({ result: "ACCEPTED", resultMessage: [{ text: "Stopped" }] });
    expect((await postCommandResult(cpo, url, { result: "MAYBE", x_charger: "CP-1" })).body.status_code).toBe(2001);
  });

  it("turns an accepted reservation into CANCELED_RESERVATION when the CPO cancels it later", async () => {
    const { cpo, id } = await registeredPartner(admin);
    const reserve = await send({ platformId: id, command: "RESERVE_NOW", tokenUid: card, locationId: "LOC1", expiryDate: inAnHour() }, cpo.handler);
    const url = cpo.state.commands.at(-1)!.body.response_url as string;
    expect((await postCommandResult(cpo, url, { result: "ACCEPTED" })).body.status_code).toBe(1000);
    expect((await postCommandResult(cpo, url, { result: "CANCELED_RESERVATION" })).body.status_message).toBeUndefined();
    expect((await call("GET", `/ocpi-service/command/${reserve.id}`, { token: admin })).body.data.result).toBe("CANCELED_RESERVATION");
  });

  it("marks TIMEOUT when no result comes within the CPO's timeout, and takes a late result over it", async () => {
    const { cpo, id } = await registeredPartner(admin);
    cpo.state.commandAnswers.push({ data: { result: "ACCEPTED", timeout: 0 } });
    const sent = await send({ platformId: id, command: "UNLOCK_CONNECTOR", locationId: "LOC1", evseUid: "E1", connectorId: "1" }, cpo.handler);
    const pending = await send({ platformId: id, command: "STOP_SESSION", sessionId: "S-9" }, cpo.handler);
    const timedOut = await call("GET", `/ocpi-service/command?platformId=${id}&result=TIMEOUT`, { token: admin });
    expect(timedOut.body.data.records).toMatchObject([{ id: sent.id, result: "TIMEOUT", timedOut: true, resultAt: null }]);
    expect((await call("GET", `/ocpi-service/command?platformId=${id}&result=PENDING`, { token: admin })).body.data.records).toMatchObject([{ id: pending.id, result: null }]);
    const late = await postCommandResult(cpo, cpo.state.commands[0].body.response_url, { result: "ACCEPTED" });
    expect(late.body.status_message).toBeUndefined();
    expect((await call("GET", `/ocpi-service/command/${sent.id}`, { token: admin })).body.data).toMatchObject({ result: "ACCEPTED", timedOut: false });
  });
});

describe("/ocpi-service/command", () => {
  it("sends a command over the network to the partner and answers it with the CommandResponse", async () => {
    const { id } = await registeredPartner(admin);
    const path = `/cpo-commands-${id}`;
    await moveCommandsEndpoint(id, `${httpOrigin}${path}/`);
    await fetch(`${httpOrigin}/__fake/answers?path=${encodeURIComponent(`${path}/START_SESSION`)}`, {
      method: "POST",
      body: JSON.stringify([{ status: 200, body: envelopeOf({ result: "ACCEPTED", timeout: 45 }, Date.now()) }, { status: 503, body: { error: "down" } }]),
    });
    const sent = await call("POST", "/ocpi-service/command", { token: admin, body: { platformId: id, command: "START_SESSION", tokenUid: card, locationId: "LOC9", evseUid: "E9" } });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ command: "START_SESSION", responseResult: "ACCEPTED", responseTimeout: 45, locationId: "LOC9", evseUid: "E9" });
    const [request] = (await (await fetch(`${httpOrigin}/__fake/requests?path=${encodeURIComponent(`${path}/START_SESSION`)}`)).json()) as { method: string; body: string }[];
    expect(request.method).toBe("POST");
    expect(JSON.parse(request.body)).toMatchObject({ response_url: `${ORIGIN}/ocpi/2.2.1/commands/START_SESSION/${sent.body.data.uid}`, location_id: "LOC9", evse_uid: "E9" });
    const down = await call("POST", "/ocpi-service/command", { token: admin, body: { platformId: id, command: "START_SESSION", tokenUid: card, locationId: "LOC9" } });
    expect(down.status).toBe(409);
    expect(down.body.msg).toContain("HTTP 503");
    await moveCommandsEndpoint(id, null);
    const none = await call("POST", "/ocpi-service/command", { token: admin, body: { platformId: id, command: "STOP_SESSION", sessionId: "S1" } });
    expect(none.status).toBe(409);
    expect(none.body.msg).toBe(en.ocpiCommands.errors.noCommandsEndpoint);
  });

  it("refuses bad bodies with 400 and the field's message, nothing sent or stored", async () => {
    const { id } = await registeredPartner(admin);
    const post = (body: unknown) => call("POST", "/ocpi-service/command", { token: admin, body });
    const fields = async (body: unknown) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      return res.body.data.fields;
    };
    expect((await call("POST", "/ocpi-service/command", { token: admin })).status).toBe(400);
    expect(await fields({ platformId: id, command: "FLY" })).toMatchObject({ command: en.ocpiCommands.validation.command });
    expect(await fields({ platformId: id, command: "START_SESSION", locationId: "L1" })).toMatchObject({ tokenUid: en.ocpiCommands.validation.tokenUid });
    expect(await fields({ platformId: id, command: "START_SESSION", tokenUid: card, locationId: "L1", connectorId: "1" })).toMatchObject({ evseUid: en.ocpiCommands.validation.evseForConnector });
    expect(await fields({ platformId: id, command: "STOP_SESSION", sessionId: "x".repeat(37) })).toMatchObject({ sessionId: en.ocpiCommands.validation.sessionId });
    expect(await fields({ platformId: id, command: "STOP_SESSION", sessionId: "S1", extra: true })).toBeDefined();
    expect(await fields({ platformId: "one", command: "STOP_SESSION", sessionId: "S1" })).toMatchObject({ platformId: en.ocpiCommands.validation.platform });
    expect(await fields({ platformId: id, command: "RESERVE_NOW", tokenUid: card, locationId: "L1", expiryDate: "tomorrow" })).toMatchObject({ expiryDate: en.ocpiCommands.validation.expiryDate });
    expect(await fields({ platformId: id, command: "RESERVE_NOW", tokenUid: card, locationId: "L1", expiryDate: "2020-01-01T00:00:00Z" })).toMatchObject({
      expiryDate: en.ocpiCommands.validation.expiryFuture,
    });
    expect(await fields({ platformId: id, command: "UNLOCK_CONNECTOR", locationId: "L1", evseUid: "E1" })).toMatchObject({ connectorId: en.ocpiCommands.validation.connectorId });
    expect(await fields({ platformId: id, command: "START_SESSION", tokenUid: "NO-SUCH-CARD", locationId: "L1" })).toMatchObject({ tokenUid: en.ocpiCommands.validation.unknownToken });
    expect((await call("GET", "/ocpi-service/command?result=MAYBE", { token: admin })).body.data.fields).toMatchObject({ result: en.ocpiCommands.validation.result });
    expect((await call("GET", `/ocpi-service/command?platformId=${id}`, { token: admin })).body.data.total).toBe(0);
  });

  it("keeps each operator's commands to itself and lets only the session menu send them", async () => {
    const { cpo, id } = await registeredPartner(admin);
    const sent = await send({ platformId: id, command: "STOP_SESSION", sessionId: "S-A" }, cpo.handler);
    expect((await call("GET", `/ocpi-service/command/${sent.id}`, { token: other })).status).toBe(404);
    expect((await call("GET", "/ocpi-service/command?size=100", { token: other })).body.data.records.map((r: { id: number }) => r.id)).not.toContain(sent.id);
    expect((await call("POST", "/ocpi-service/command", { token: other, body: { platformId: id, command: "STOP_SESSION", sessionId: "S-A" } })).status).toBe(404);
    // The location screen watches the commands sent to partners' chargers, but sends none.
    const watcher = await tokenWithMenus(admin, ["emsp.location"]);
    expect((await call("GET", `/ocpi-service/command/${sent.id}`, { token: watcher })).status).toBe(200);
    const refused = await call("POST", "/ocpi-service/command", { token: watcher, body: { platformId: id, command: "STOP_SESSION", sessionId: "S-A" } });
    expect(refused.status).toBe(403);
    const nobody = await tokenWithMenus(admin, ["home"]);
    expect((await call("GET", "/ocpi-service/command", { token: nobody })).status).toBe(403);
    const operator = await tokenWithMenus(admin, ["emsp.session"]);
    expect((await call("GET", `/ocpi-service/command/${sent.id}`, { token: operator })).status).toBe(200);
    // An unregistered platform takes no command.
    await unregisterPlatform(await userCtxOf(admin), id, cpo.handler);
    const unregistered = await call("POST", "/ocpi-service/command", { token: operator, body: { platformId: id, command: "STOP_SESSION", sessionId: "S-A" } });
    expect(unregistered.status).toBe(409);
    // Deleting the platform takes its commands with it.
    expect((await call("DELETE", `/ocpi-service/platform/${id}`, { token: admin })).status).toBe(200);
    expect((await call("GET", `/ocpi-service/command/${sent.id}`, { token: admin })).status).toBe(404);
  });

  it("pages at size 100 with more than 100 commands, by platform, command, result, text and time", async () => {
    const { id } = await registeredPartner(admin);
    const operatorId = await operatorIdOf("0PL002");
    const base = Date.parse("2033-04-01T00:00:00Z");
    const insert = env.DB.prepare(
      "INSERT INTO ocpi_commands (operator_id, platform_id, uid, command, request, session_id, response_result, result, created_by, created_at) VALUES (?, ?, ?, ?, '{}', ?, 'ACCEPTED', ?, 'demoadmin', ?)",
    );
    await env.DB.batch(
      Array.from({ length: 150 }, (_, i) => insert.bind(operatorId, id, crypto.randomUUID(), i % 2 ? "STOP_SESSION" : "START_SESSION", `PS${i}`, i % 3 ? "ACCEPTED" : "FAILED", base + i * 60_000)),
    );
    const first = await call("GET", `/ocpi-service/command?platformId=${id}&size=100&current=1`, { token: admin });
    expect(first.body.data.total).toBe(150);
    expect(first.body.data.records).toHaveLength(100);
    expect(first.body.data.records[0].sessionId).toBe("PS149");
    expect((await call("GET", `/ocpi-service/command?platformId=${id}&size=100&current=2`, { token: admin })).body.data.records).toHaveLength(50);
    expect((await call("GET", `/ocpi-service/command?platformId=${id}&command=STOP_SESSION`, { token: admin })).body.data.total).toBe(75);
    expect((await call("GET", `/ocpi-service/command?platformId=${id}&result=FAILED`, { token: admin })).body.data.total).toBe(50);
    expect((await call("GET", `/ocpi-service/command?platformId=${id}&q=PS14`, { token: admin })).body.data.total).toBe(11);
    const window = await call("GET", `/ocpi-service/command?platformId=${id}&from=2033-04-01T00:10:00Z&to=2033-04-01T00:19:00Z`, { token: admin });
    expect(window.body.data.total).toBe(10);
  });
});
