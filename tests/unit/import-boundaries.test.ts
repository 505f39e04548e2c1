import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The import boundaries of eslint.config.js catch what they are for: a fixture is linted as if
 * it were a file of the console, so a rule that stopped matching would fail here rather than let
 * server code slip into the browser bundle.
 */
const eslint = new ESLint({ cwd: fileURLToPath(new URL("../..", import.meta.url)), overrideConfigFile: "eslint.config.js" });

const boundaryMessages = async (code: string, filePath: string) => {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
};

const verbImport = 'import { listPoints } from "../../workers/services/points/points";\nexport const points = listPoints;\n';

/** The first lint builds the project's TypeScript program, which grows with the project. */
const FIRST_LINT_MS = 60_000;

describe("import boundaries", { timeout: FIRST_LINT_MS }, () => {
  it("refuses a route module that imports a verb from workers/", async () => {
    const messages = await boundaryMessages(verbImport, "app/routes/example.tsx");
    expect(messages).toEqual([expect.stringMatching(/no-restricted-imports: .*the console reaches workers\/ only from \*\.server\.ts modules/)]);
  });

  it("lets the route's *.server.ts module import the same verb", async () => {
    expect(await boundaryMessages(verbImport, "app/routes/example.server.ts")).toEqual([]);
  });

  it("lets a route module import a worker's types, which carry no code", async () => {
    const code = 'import type { UserCtx } from "../../workers/services/context";\nexport type Example = UserCtx;\n';
    expect(await boundaryMessages(code, "app/routes/example.tsx")).toEqual([]);
  });

  it("refuses the console's server modules a direct read of tables or of tenant resolution", async () => {
    const code = 'import { createDb } from "../../db/client";\nimport { settingsOf } from "../../tenants/resolve";\nexport const direct = [createDb, settingsOf];\n';
    const messages = await boundaryMessages(code, "app/routes/example.server.ts");
    expect(messages).toHaveLength(2);
    for (const message of messages) expect(message).toMatch(/the console reads records only through verbs/);
  });

  it("refuses a Durable Object, a job or the live view a table, the database client, the tenancy scope or env.DB", async () => {
    const code = [
      'import { points } from "../../db/schema/equipment";',
      'import { stations } from "../../db/schema";',
      'import { createDb } from "../../db/client";',
      'import { owned } from "../../tenants/scope";',
      "export const direct = (env: Env) => [points, stations, createDb, owned, env.DB];",
      "",
    ].join("\n");
    for (const folder of ["workers/ocpp", "workers/jobs", "workers/live"]) {
      const messages = await boundaryMessages(code, `${folder}/example.ts`);
      expect(messages, folder).toHaveLength(5);
      expect(messages.filter((m) => m.startsWith("@typescript-eslint/no-restricted-imports: "))).toHaveLength(4);
      expect(messages.filter((m) => m.startsWith("no-restricted-syntax: "))).toHaveLength(1);
      for (const message of messages) expect(message).toMatch(/Durable Objects, jobs and the live view call verbs/);
    }
  });

  it("lets a Durable Object call a verb and name a table's types", async () => {
    const code = 'import type { points } from "../../db/schema/equipment";\nimport { listPoints } from "../services/points/points";\nexport type Row = typeof points.$inferSelect;\nexport const list = listPoints;\n';
    expect(await boundaryMessages(code, "workers/ocpp/example.ts")).toEqual([]);
  });

  it("keeps the console's server modules and the live view off the API's modules, types excepted", async () => {
    const fromApp = 'import { ok } from "../../workers/api/envelope";\nexport const o = ok;\n';
    expect(await boundaryMessages(fromApp, "app/lib/example.server.ts")).toEqual([expect.stringMatching(/only the API imports workers\/api\/; what the doors share .* lives in workers\/http\//)]);
    const fromLive = 'import { ok } from "../api/envelope";\nexport const o = ok;\n';
    for (const folder of ["workers/live", "workers/ocpp", "workers/jobs"]) {
      expect(await boundaryMessages(fromLive, `${folder}/example.ts`), folder).toEqual([expect.stringMatching(/only the API imports workers\/api\//)]);
    }
    const shared = 'import { errorBody } from "../http/error-envelope";\nimport { assertSameOrigin } from "../http/same-origin";\nexport const s = [errorBody, assertSameOrigin];\n';
    expect(await boundaryMessages(shared, "workers/live/example.ts")).toEqual([]);
    const types = 'import type { ApiRoutes } from "../../workers/api/index";\nexport type Routes = ApiRoutes;\n';
    expect(await boundaryMessages(types, "app/lib/example.server.ts")).toEqual([]);
    expect(await boundaryMessages(types, "app/lib/example.ts")).toEqual([]);
  });

  it("keeps domain/ pure, db/ on domain/ alone and tenants/ off the Worker", async () => {
    expect(await boundaryMessages('import { points } from "../db/schema";\nexport const t = points;\n', "domain/example.ts")).toEqual([
      expect.stringMatching(/domain\/ is pure: it imports no folder of ours/),
    ]);
    expect(await boundaryMessages('import { owned } from "../tenants/scope";\nexport const o = owned;\n', "db/example.ts")).toEqual([
      expect.stringMatching(/db\/ imports only domain\//),
    ]);
    expect(await boundaryMessages('import { verb } from "../workers/services/verb";\nexport const v = verb;\n', "tenants/example.ts")).toEqual([
      expect.stringMatching(/tenants\/ imports only db\/ and domain\//),
    ]);
    expect(await boundaryMessages('import { slices } from "../domain/slices";\nexport const s = slices;\n', "db/example.ts")).toEqual([]);
  });

  it("keeps the money areas importing one way: payments never reaches billing, charge records never reach billing or statements", async () => {
    const billing = 'import { settleStatements } from "../billing/settlement";\nexport const s = settleStatements;\n';
    expect(await boundaryMessages(billing, "workers/services/payments/example.ts")).toEqual([expect.stringMatching(/the money areas import one way: .*payments\/ never imports billing/)]);
    expect(await boundaryMessages(billing, "workers/services/charge-records/example.ts")).toEqual([expect.stringMatching(/charge-records\/ never imports billing/)]);
    const statements = 'import { STATEMENT_MENUS } from "../statements/statements";\nexport const m = STATEMENT_MENUS;\n';
    expect(await boundaryMessages(statements, "workers/services/charge-records/example.ts")).toEqual([expect.stringMatching(/the money areas import one way/)]);
    const payments = 'import { capture } from "../payments/capture";\nexport const c = capture;\n';
    expect(await boundaryMessages(payments, "workers/services/wallets/example.ts")).toEqual([expect.stringMatching(/wallets\/ never imports billing, payments/)]);
    expect(await boundaryMessages(payments, "workers/services/billing/example.ts")).toEqual([]);
  });

  it("still keeps a money area off the console, scripts and tests", async () => {
    const code = 'import { seed } from "../../../scripts/seed";\nexport const s = seed;\n';
    expect(await boundaryMessages(code, "workers/services/payments/example.ts")).toEqual([expect.stringMatching(/workers\/ never imports the console, scripts or tests/)]);
  });
});
