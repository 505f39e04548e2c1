import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyChargersChanges, type ChargerChange } from "../../workers/services/ocpp/charger-changes";
import { systemCtx } from "../../workers/services/context";
import { row, rows } from "./support/d1";
import { makeCharger } from "./support/factories";
import { byOperatorAlone, plansOf } from "./support/query-plans";
import { addSessions } from "./support/sessions";

/**
 * A burst of statuses costs D1 few statements (docs/rules/ocpp.md "Hot path"; docs/performance.md
 * "Statuses in few statements"): the statuses of many chargers share a statement per 19 for the
 * connector rows, the closes and the opens of their history, and an Available writes an unplug
 * only where a stopped session awaits one.
 */

const status = (connectorId: number, s: string, at: number): ChargerChange => ({ kind: "status", status: { connectorId, status: s, errorCode: "NoError", at } });

/** The SQL of the statements of each D1 batch the changes made (reads and writes). */
function watchBatches() {
  const spy = vi.spyOn(env.DB, "batch");
  return () => spy.mock.calls.map(([statements]) => statements.map((s) => String((s as unknown as { statement: string }).statement)));
}

afterEach(() => vi.restoreAllMocks());

async function chargers(count: number) {
  const made = [];
  for (let i = 0; i < count; i++) made.push(await makeCharger("0PL002"));
  return made;
}

const openIntervals = (pointId: number) =>
  rows<{ connector_no: number; status: string; started_at: number }>(
    "SELECT connector_no, status, started_at FROM status_intervals WHERE point_id = ? AND ended_at IS NULL ORDER BY connector_no",
    pointId,
  );

describe("the statuses of many chargers in a D1 batch", () => {
  it("lands 40 chargers' statuses in nine statements beside the ordered ones of chargers that name a connector twice, rows and history right, and a second time changes nothing", async () => {
    const made = await chargers(42);
    const ctx = systemCtx(env, { id: made[0].operatorId, code: "0PL002" }, "test");
    const at = Date.now() - 60_000;
    // 40 chargers with one status each (Preparing and Available in turn); one that says two
    // things of one connector, and one whose two batches came together (sent again after an
    // eviction), whose statuses go in their own order.
    const burst = made.slice(0, 40).map((m, i) => ({ ctx, pointId: m.pointId, changes: [status(1, i % 2 ? "Available" : "Preparing", at + i)] }));
    const twice = { ctx, pointId: made[40].pointId, changes: [status(1, "Preparing", at), status(1, "Available", at + 5_000)] };
    const again = [status(1, "Preparing", at), status(1, "Available", at + 5_000)].map((change) => ({ ctx, pointId: made[41].pointId, changes: [change] }));
    const all = [...burst, twice, ...again];
    const batches = watchBatches();
    await applyChargersChanges(ctx, all);
    const [, writes] = batches();
    // The two statuses of one connector, twice: its row and history each, in order (twelve); the
    // 40: a connector statement, a close and an open per 19 (nine); no unplug: none awaits one.
    expect(writes).toHaveLength(21);
    expect(writes.filter((sql) => sql.includes("charge_records"))).toEqual([]);

    for (const [i, m] of made.slice(0, 40).entries()) {
      const expected = i % 2 ? "Available" : "Preparing";
      expect(await row("SELECT status, error_code AS errorCode, status_at AS statusAt FROM connectors WHERE point_id = ? AND connector_no = 1", m.pointId)).toEqual({
        status: expected,
        errorCode: "NoError",
        statusAt: at + i,
      });
      expect(await openIntervals(m.pointId)).toEqual([{ connector_no: 1, status: expected, started_at: at + i }]);
    }
    for (const m of made.slice(40)) {
      expect(await row("SELECT status FROM connectors WHERE point_id = ? AND connector_no = 1", m.pointId)).toEqual({ status: "Available" });
      expect(
        await rows("SELECT status, started_at AS startedAt, ended_at AS endedAt FROM status_intervals WHERE point_id = ? AND connector_no = 1 ORDER BY started_at", m.pointId),
      ).toEqual([
        { status: "Preparing", startedAt: at, endedAt: at + 5_000 },
        { status: "Available", startedAt: at + 5_000, endedAt: null },
      ]);
    }

    // Applied again (a flush cut short by an eviction): nothing more.
    const intervals = () => row<{ n: number }>("SELECT count(*) AS n FROM status_intervals WHERE point_id >= ?", made[0].pointId);
    const before = await intervals();
    await applyChargersChanges(ctx, all);
    expect(await intervals()).toEqual(before);
    expect(await openIntervals(made[1].pointId)).toEqual([{ connector_no: 1, status: "Available", started_at: at + 1 }]);
  });

  it("unplugs the record of a session that stopped on the connector, and writes no unplug for an Available without one", async () => {
    const [withSession, without] = await chargers(2);
    const ctx = systemCtx(env, { id: withSession.operatorId, code: "0PL002" }, "test");
    const stop = Date.now() - 3_600_000;
    const [transactionId] = await addSessions(withSession, [
      { start: new Date(stop - 3_600_000).toISOString(), stop: new Date(stop).toISOString(), connector: 1, meterStop: 1_000 },
    ]);
    const unplugAt = stop + 20 * 60_000;
    const batches = watchBatches();
    await applyChargersChanges(ctx, [
      // Connector 2 of the same point had no session: its Available unplugs nothing.
      { ctx, pointId: withSession.pointId, changes: [status(2, "Available", unplugAt), status(1, "Available", unplugAt)] },
      { ctx, pointId: without.pointId, changes: [status(1, "Available", unplugAt)] },
    ]);
    const [, writes] = batches();
    expect(writes.filter((sql) => sql.startsWith('update "charge_records"'))).toHaveLength(1);
    expect(await row("SELECT unplug_at AS unplugAt FROM charge_records WHERE transaction_id = ?", transactionId)).toEqual({ unplugAt });

    // A later Available finds it unplugged already: no statement, and the time stays.
    await applyChargersChanges(ctx, [{ ctx, pointId: withSession.pointId, changes: [status(1, "Preparing", unplugAt + 1_000), status(1, "Available", unplugAt + 60_000)] }]);
    expect(
      batches()
        .at(-1)!
        .filter((sql) => sql.startsWith('update "charge_records"')),
    ).toEqual([]);
    expect(await row("SELECT unplug_at AS unplugAt FROM charge_records WHERE transaction_id = ?", transactionId)).toEqual({ unplugAt });
  });

  it("reaches every row a charger's changes read or write through its point, never through the operator's rows alone", async () => {
    // Every kind of change, with a history behind it: the operator's other intervals must not be
    // what a charger's statement walks (decision 0110: SQLite took the operator's index of
    // status_intervals for \`operator_id = ? AND started_at < ?\`, and a storm slowed with history).
    const [made, other] = await chargers(2);
    const ctx = systemCtx(env, { id: made.operatorId, code: "0PL002" }, "test");
    const at = Date.now() - 3_600_000;
    const stop = at - 60_000;
    await addSessions(made, [{ start: new Date(stop - 3_600_000).toISOString(), stop: new Date(stop).toISOString(), connector: 1, meterStop: 1_000 }]);
    await addSessions(made, [{ start: new Date(stop).toISOString(), connector: 2 }]);
    await applyChargersChanges(ctx, [{ ctx, pointId: other.pointId, changes: [{ kind: "online", online: true, at: at - 1_000 }, status(1, "Charging", at - 900)] }]);
    const fault: ChargerChange = { kind: "status", status: { connectorId: 2, status: "Faulted", errorCode: "GroundFailure", at: at + 300 } };
    const changes = async () => {
      await applyChargersChanges(ctx, [
        {
          ctx,
          pointId: made.pointId,
          changes: [
            { kind: "online", online: true, at },
            { kind: "boot", at: at + 100, facts: { vendor: "Test", model: "T1" } },
          ],
        },
        { ctx, pointId: made.pointId, changes: [status(1, "Available", at + 200), fault, status(2, "Available", at + 400)] },
        { ctx, pointId: other.pointId, changes: [status(1, "Available", at + 200), { kind: "online", online: false, at: at + 500 }] },
      ]);
      await applyChargersChanges(ctx, [{ ctx, pointId: other.pointId, changes: [status(1, "Preparing", at + 600)] }]);
    };
    const { plans } = await plansOf(changes);
    // Reads and writes of points, connectors, transactions, alarms, records and history.
    expect(new Set(plans.map(({ step }) => step.split(" ")[1])).size).toBeGreaterThanOrEqual(6);
    expect(byOperatorAlone(plans)).toEqual([]);
  });

  it("unplugs nothing for an Available reported before the session stopped", async () => {
    const [made] = await chargers(1);
    const ctx = systemCtx(env, { id: made.operatorId, code: "0PL002" }, "test");
    const stop = Date.now() - 3_600_000;
    const [transactionId] = await addSessions(made, [{ start: new Date(stop - 3_600_000).toISOString(), stop: new Date(stop).toISOString(), connector: 1, meterStop: 1_000 }]);
    await applyChargersChanges(ctx, [{ ctx, pointId: made.pointId, changes: [status(1, "Available", stop - 60_000)] }]);
    expect(await row("SELECT unplug_at AS unplugAt FROM charge_records WHERE transaction_id = ?", transactionId)).toEqual({ unplugAt: null });
  });
});
