import { beforeAll, describe, expect, it } from "vitest";
import { call, tokenFor } from "./support/http";

/** A roaming list's period as the date-range picker sends it: days in the operator's zone (docs/rules/lists.md "Filters and sorting"). */
let admin: string;
beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
});

describe("roaming list periods", () => {
  it.each(["/ocpi-service/session", "/ocpi-service/command"])("takes whole days on %s, to included, and refuses a reversed range", async (path) => {
    const day = await call("GET", `${path}?from=2026-11-01&to=2026-11-01`, { token: admin });
    expect(day.status).toBe(200);
    const all = await call("GET", `${path}?from=2000-01-01&to=2100-12-31`, { token: admin });
    const open = await call("GET", path, { token: admin });
    expect(all.body.data.total).toBe(open.body.data.total);
    expect((await call("GET", `${path}?from=2026-11-02&to=2026-11-01`, { token: admin })).status).toBe(400);
    expect((await call("GET", `${path}?from=2026-11-01&to=2026-11-01T12:00`, { token: admin })).status).toBe(200);
  });
});
