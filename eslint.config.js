import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * `npm run lint` (part of `npm test`): typescript-eslint's recommended rules, React's hook
 * rules, and the import boundaries of docs/architecture.md "Folders and what may import what".
 * A boundary lists the folders a folder must not import from; type-only imports carry no code,
 * so the console may name a worker's types.
 */
const OURS = ["app", "workers", "db", "tenants", "domain", "scripts", "tests"];
const except = (...allowed) => OURS.filter((folder) => !allowed.includes(folder)).map((folder) => `**/${folder}/**`);

/** Imports matching `forbidden` fail with `message`. */
const group = (forbidden, message, options = {}) => ({ group: forbidden, message, ...options });
/** What `files` must not import; for a file that two boundaries match, the later one replaces the earlier. */
const boundary = (files, ...groups) => ({
  files,
  rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: groups }] },
});

/** Whatever part of the Worker: never the console, scripts or tests. */
const workersKeepOut = group(["**/app/**", "**/scripts/**", "**/tests/**"], "workers/ never imports the console, scripts or tests");

/**
 * The API's modules are the API's door: the console, the live view, chargers and jobs take what
 * the doors share from workers/http/ (docs/architecture.md "Folders and what may import what").
 * Type-only imports carry no code, so the typed API client may name the API's types.
 */
const apiKeepsItsModules = (...forbidden) =>
  group(forbidden, "only the API imports workers/api/; what the doors share (the error envelope, the same-origin check) lives in workers/http/", { allowTypeImports: true });

/** Durable Objects, jobs and the live view reach records only through verbs: no table, client, scope or `env.DB`. */
const noTables = "Durable Objects, jobs and the live view call verbs (workers/services); they never import tables, the database client or the tenancy scope, nor use env.DB";
const callVerbsOnly = boundary(
  ["workers/ocpp/**", "workers/jobs/**", "workers/live/**"],
  workersKeepOut,
  group(["**/db/schema", "**/db/schema/**", "**/db/client", "**/tenants/scope"], noTables, { allowTypeImports: true }),
  apiKeepsItsModules("**/api", "**/api/**"),
);

/** The console, server modules included, reads records through verbs only (docs/architecture.md "One door"). */
const consoleReadsThroughVerbs = group(
  ["**/db/**", "**/tenants/resolve", "**/tenants/scope"],
  "the console reads records only through verbs (workers/services), never db/ or tenants/ resolution and scope",
  { allowTypeImports: true },
);

/**
 * The money areas import one way (docs/architecture.md "Money areas"): billing → payments →
 * wallets; billing, payments and statements → charge records, the lowest. A piece two of them
 * need lives in the lower one (or in drivers/, who pays), never in a cycle.
 */
const moneyAreas = (area, ...above) =>
  boundary(
    [`workers/services/${area}/**`],
    workersKeepOut,
    group(
      above.map((folder) => `**/${folder}/**`),
      `the money areas import one way: billing → payments → wallets, and billing, payments, statements → charge-records; ${area}/ never imports ${above.join(", ")}`,
    ),
  );

export default tseslint.config(
  { ignores: ["build/**", ".react-router/**", "**/.wrangler/**", "node_modules/**", "worker-configuration.d.ts", "tests/unit/*.fixture.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["app/**/*.tsx", "app/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/no-namespace": ["error", { allowDeclarations: true }],
    },
  },
  // Tests read loosely typed answers (JSON envelopes, frames) on purpose.
  { files: ["tests/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  boundary(["domain/**"], group(except("domain"), "domain/ is pure: it imports no folder of ours")),
  boundary(["db/**"], group(except("db", "domain"), "db/ imports only domain/")),
  boundary(["tenants/**"], group(except("tenants", "db", "domain"), "tenants/ imports only db/ and domain/")),
  boundary(["workers/**"], workersKeepOut),
  // Durable Objects, jobs and the live view call verbs; they never touch a table (docs/architecture.md "One door").
  { ...callVerbsOnly, rules: { ...callVerbsOnly.rules, "no-restricted-syntax": ["error", { selector: "MemberExpression[property.name='DB']", message: noTables }] } },
  moneyAreas("charge-records", "billing", "payments", "wallets", "statements"),
  moneyAreas("wallets", "billing", "payments", "statements", "charge-records"),
  moneyAreas("payments", "billing", "statements"),
  moneyAreas("statements", "billing", "payments", "wallets"),
  boundary(
    ["app/**"],
    group(["**/workers/**", "**/scripts/**", "**/tests/**"], "the console reaches workers/ only from *.server.ts modules", { allowTypeImports: true }),
    consoleReadsThroughVerbs,
  ),
  boundary(
    ["app/**/*.server.ts", "app/entry.server.tsx"],
    group(["**/scripts/**", "**/tests/**"], "server modules never import scripts or tests"),
    consoleReadsThroughVerbs,
    apiKeepsItsModules("**/workers/api", "**/workers/api/**"),
  ),
);
