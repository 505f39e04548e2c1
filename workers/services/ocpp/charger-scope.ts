/**
 * The D1 records a charger's messages change are written through verbs whose actor is the system
 * (`charger <serial>`), like every other caller (docs/architecture.md "One door"). Only state
 * changes reach D1: boot, status and online changes in batches after the answer
 * (charger-changes.ts), transaction start and stop before it (transactions.ts); Heartbeat and meter
 * readings never do (docs/rules/ocpp.md "Hot path"). A change an operator would want to see, a
 * transaction marked ABNORMAL, leaves an operation-log row with the system as actor.
 */
export const system = { actors: ["system"] } as const;
