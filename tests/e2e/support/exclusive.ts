import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import type { Api } from "../../../scripts/sim/register";

/**
 * Browser and peer test files run side by side against the run's one server (docs/testing.md
 * "Browser tests"). Most make what they change themselves (a point, a customer, an operator); a
 * file that changes or relies on a part of the demo that other files use too names it here, and
 * holds it, for its whole run (`exclusively`) or for the steps that need it (`holding`): no
 * other file that names it runs meanwhile.
 *
 * A held resource is a folder under the one the global setup names: creating a folder succeeds
 * for one process only. Several resources are taken in one order, so two files never wait on
 * each other.
 */
export type DemoResource =
  /** The demo charger DE001-CP01: a second connection with its identity replaces the first. */
  | "charger DE001-CP01"
  /** The demo charger PL002-CP01, whose public page shows its connectors' states. */
  | "charger PL002-CP01"
  /** The demo card DEMO0001: a session on it makes every other start with it ConcurrentTx. */
  | "tag DEMO0001"
  /** The points given to the demo sub-operator: read, then written whole, and counted. */
  | "sub-operator 0PL002A's devices"
  /** The parameter settings: read, then written whole, and put back at the end. */
  | "settings of 0PL002"
  | "settings of 0DE001"
  /** The roaming platforms: whether a partner takes tokens depends on all of them. */
  | "roaming partners of 0PL002";

/** Longer than any file that holds a resource takes, times the files that may wait before it. */
const WAIT_MS = 20 * 60_000;
const POLL_MS = 250;

const folder = (resource: DemoResource) => join(inject("heldResources"), encodeURIComponent(resource));

/** Takes the resources, in one order whoever asks, waiting while another file holds one; what to call to give them back. */
async function take(resources: DemoResource[]): Promise<() => void> {
  const held: DemoResource[] = [];
  const giveBack = () => {
    for (const resource of held.splice(0).reverse()) rmSync(folder(resource), { recursive: true, force: true });
  };
  try {
    for (const resource of [...new Set(resources)].sort()) {
      for (;;) {
        try {
          mkdirSync(folder(resource));
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      }
      held.push(resource);
    }
  } catch (error) {
    giveBack();
    throw error;
  }
  return giveBack;
}

/** Holds the resources for the whole file: call it at the top, before the file's own hooks. */
export function exclusively(...resources: DemoResource[]) {
  let giveBack = () => {};
  beforeAll(async () => {
    giveBack = await take(resources);
  }, WAIT_MS);
  afterAll(() => giveBack());
}

/** Holds the resource only while `work` runs: for a read and write that nothing may come between. */
export async function holding<T>(resource: DemoResource, work: () => Promise<T>): Promise<T> {
  const giveBack = await take([resource]);
  try {
    return await work();
  } finally {
    giveBack();
  }
}

/**
 * Gives the point to the demo sub-operator 0PL002A beside what it has: its devices are read and
 * written whole, so no other file's assignment comes between the two.
 */
export async function giveToDemoSubOperator(a: Api, pointId: number) {
  await holding("sub-operator 0PL002A's devices", async () => {
    const subOperator = (await a.get<{ records: { id: number; code: string }[] }>("/user-service/sub-operator-devices?size=100")).records.find((s) => s.code === "0PL002A")!;
    const assigned = await a.get<{ stationIds: number[]; pointIds: number[] }>(`/user-service/sub-operator/${subOperator.id}/devices`);
    await a.put(`/user-service/sub-operator/${subOperator.id}/devices`, { stationIds: assigned.stationIds, pointIds: [...assigned.pointIds, pointId] });
  });
}
