import { desc, eq, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { alarms, chargeStrategies, connectors, diagnostics, ocppReviews, operators, parameterSettings, pointEvents, points, transactions } from "../../../db/schema";
import type { BatchItem } from "drizzle-orm/batch";
import { batchOf } from "../../../db/statements";
import { slices } from "../../../domain/slices";
import { authorizationStatus, type AuthorizationStatus, type IdTagInfo, type TagFacts } from "../../../domain/ocpp";
import type { BillingMessage } from "../../../domain/schemas/billing";
import { DIAGNOSIS_STATUS_OF } from "../../../domain/schemas/equipment";
import { OCPP_ERROR_LEVEL } from "../../../domain/schemas/operations";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { abnormalRecordsStatement, openRecordStatements, unpluggedRecords, unplugStatement } from "../charge-records/lifecycle";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { queueAuthorisation } from "../payments/capture";
import { registryFacts, type RegistryTag } from "../drivers/registry";
import { openWorkOrdersForAlarms } from "../maintenance/work-orders";

/**
 * The D1 records a charger's messages change, written through verbs whose actor is the system
 * (`charger <serial>`), like every other caller (docs/architecture.md "One door"). Only state
 * changes come here: boot, status and online changes in batches after the answer
 * (`applyChargersChanges`), transaction start and stop before it; Heartbeat and MeterValues
 * never do (docs/rules/ocpp.md "Hot path"). A change an operator would want to
 * see, a transaction marked ABNORMAL, leaves an operation-log row with the system as actor.
 */
const system = { actors: ["system"] } as const;

const ofPoint = (ctx: SystemCtx, pointId: number) => owned(ctx, points, eq(points.id, pointId));

/**
 * What the Worker finds of a connecting charger before any tenant is known (its serial is unique),
 * with its operator's OCPP settings; a charger's Durable Object reads it again, as the system,
 * when the API has dropped what it kept: everything the charger's Durable Object keeps of its
 * registration (docs/decisions/0016-charger-registration-kept-by-the-charger.md).
 */
export const findCharger = verb({ actors: ["public", "system"] }, async (ctx, serialNumber: string) => {
  const [row] = await ctx.db
    .select({
      point: points,
      operatorCode: operators.code,
      // Whether the operator is in service decides the boot (docs/rules/platform.md "Validity").
      operatorValidity: { status: operators.status, validFrom: operators.validFrom, validUntil: operators.validUntil },
      heartbeatIntervalS: parameterSettings.heartbeatIntervalS,
      disabledPointBoot: parameterSettings.disabledPointBoot,
      // How many points its operator has decides where its live events go (workers/live/shards.ts);
      // counted on the operator's own points, by the index that leads with the operator.
      // tenancy: the count is of the found point's own operator (own.operator_id is that point's).
      operatorPoints: sql<number>`(SELECT count(*) FROM points AS own WHERE own.operator_id = ${points.operatorId})`,
    })
    .from(points)
    .innerJoin(operators, eq(operators.id, points.operatorId))
    .leftJoin(parameterSettings, eq(parameterSettings.operatorId, points.operatorId))
    // A chargeBoxId names one point across the platform: the lookup that finds the tenant.
    .where(acrossTenants(eq(points.serialNumber, serialNumber)))
    .limit(1);
  if (!row) return undefined;
  // An operator without a settings row gets the defaults of `settingsOf`.
  const defaults = row.heartbeatIntervalS === null || row.disabledPointBoot === null ? await settingsOf(ctx.db, row.point.operatorId) : undefined;
  return {
    ...row,
    heartbeatIntervalS: row.heartbeatIntervalS ?? defaults!.heartbeatIntervalS,
    disabledPointBoot: row.disabledPointBoot ?? defaults!.disabledPointBoot,
  };
});

export interface BootFacts {
  vendor: string;
  model: string;
  firmwareVersion?: string;
  boxSerialNumber?: string;
  iccid?: string;
  imsi?: string;
  meterSerialNumber?: string;
  meterType?: string;
}

function nullable(facts: BootFacts) {
  return {
    vendor: facts.vendor,
    model: facts.model,
    firmwareVersion: facts.firmwareVersion ?? null,
    boxSerialNumber: facts.boxSerialNumber ?? null,
    iccid: facts.iccid ?? null,
    imsi: facts.imsi ?? null,
    meterSerialNumber: facts.meterSerialNumber ?? null,
    meterType: facts.meterType ?? null,
  };
}

/** Why the system marked a transaction ABNORMAL (docs/rules/ocpp.md "Transactions"). */
export type AbnormalReason = "rebooted" | "availableWithoutStop" | "silent" | "notAccepted";

/**
 * The statements that mark these running transactions ABNORMAL, with a review row each and one
 * operation-log row: the review rows are inserted from the same rows the update then changes, so
 * the change never stands without its record (docs/rules/ocpp.md "Transactions"). The update
 * comes last and answers the ids it changed.
 */
function abnormalStatements(ctx: SystemCtx, ids: number[], reason: AbnormalReason) {
  if (ids.length === 0) return undefined;
  const running = owned(ctx, transactions, inArray(transactions.id, ids), eq(transactions.status, "ACTIVE"));
  return [
    ctx.db.insert(ocppReviews).select(
      ctx.db
        // Every column of ocpp_reviews, in its order (drizzle's insert-select asks for that); a null id autoincrements.
        .select({
          id: sql<number>`null`.as("id"),
          operatorId: transactions.operatorId,
          pointId: transactions.pointId,
          kind: sql<string>`'ABNORMAL'`.as("kind"),
          transactionId: transactions.id,
          detail: sql<string>`${JSON.stringify({ reason })}`.as("detail"),
          createdAt: sql<number>`${ctx.now()}`.as("created_at"),
        })
        .from(transactions)
        .where(running),
    ),
    auditRow(ctx, { table: "transactions", module: "ocpp", type: "UPDATE", newData: { ids, status: "ABNORMAL", reason } }),
    ctx.db.update(transactions).set({ status: "ABNORMAL", abnormalReason: reason }).where(running).returning({ id: transactions.id }),
    abnormalRecordsStatement(ctx, ids),
  ] as const;
}

/** Marks these running transactions ABNORMAL in one batch; answers the ids it changed. */
async function markAbnormal(ctx: SystemCtx, ids: number[], reason: AbnormalReason) {
  const statements = abnormalStatements(ctx, ids, reason);
  if (!statements) return [];
  const [, , changed] = await ctx.db.batch(statements);
  return changed.map((t) => t.id);
}

export interface StatusChange {
  connectorId: number;
  status: string;
  errorCode: string;
  info?: string;
  vendorErrorCode?: string;
  at: number;
}

/**
 * A change a charger's Durable Object hands to D1 after it has answered, in batches and in the
 * order the charger sent them (docs/rules/ocpp.md "Hot path"): the online flag, a boot (what the
 * charger says of itself; its open transactions cannot survive a reboot), a connector's status.
 */
export type ChargerChange =
  | { kind: "online"; online: boolean; at: number }
  | { kind: "boot"; facts: BootFacts; at: number }
  | { kind: "status"; status: StatusChange };

/** An alarm a status change raised, for the live view. */
export interface RaisedAlarm {
  connectorId: number;
  level: string;
  type: string;
  at: number;
}

/** One charger's changes in a batch of several chargers: its context names the charger in the log. */
export interface ChargerChanges {
  ctx: SystemCtx;
  pointId: number;
  changes: ChargerChange[];
}

type ActiveTransaction = { id: number; connectorNo: number };
type OpenAlarm = { connectorNo: number; type: string };

/** The running transactions and open alarms of these points, in one read batch (100 bound parameters per statement). */
async function pointFacts(ctx: SystemCtx, pointIds: number[]) {
  const active = new Map<number, ActiveTransaction[]>();
  const open = new Map<number, OpenAlarm[]>();
  if (pointIds.length === 0) return { active, open };
  const reads = slices(pointIds, 90).flatMap((ids) => [
    ctx.db
      .select({ pointId: transactions.pointId, id: transactions.id, connectorNo: transactions.connectorNo })
      .from(transactions)
      .where(owned(ctx, transactions, inArray(transactions.pointId, ids), eq(transactions.status, "ACTIVE"))),
    ctx.db
      .select({ pointId: alarms.pointId, connectorNo: alarms.connectorNo, type: alarms.type })
      .from(alarms)
      .where(owned(ctx, alarms, inArray(alarms.pointId, ids), eq(alarms.status, "Undisposed"))),
  ]);
  const results = (await ctx.db.batch(reads as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown as ({ pointId: number } & (ActiveTransaction | OpenAlarm))[][];
  // The reads alternate per slice: running transactions, then open alarms.
  results.forEach((rows, i) => {
    const into = (i % 2 === 0 ? active : open) as Map<number, unknown[]>;
    for (const { pointId, ...row } of rows) into.set(pointId, [...(into.get(pointId) ?? []), row]);
  });
  return { active, open };
}

/**
 * The statements of one charger's changes, in their order, given its running transactions and
 * open alarms as D1 had them before the batch:
 *
 * - online: the point's flag and when it changed;
 * - boot: the point's facts, and every running transaction marked ABNORMAL (`rebooted`);
 * - status: the connector row (connector 0 is the point itself), alarms raised by an error code
 *   and closed when it clears (AutoRecovery), and a transaction the charger forgot to stop when
 *   the connector comes back Available marked ABNORMAL (`availableWithoutStop`).
 */
function changeStatements(ctx: SystemCtx, pointId: number, changes: ChargerChange[], activeBefore: ActiveTransaction[], open: OpenAlarm[]) {
  let active = activeBefore;
  const openAlarms = new Set(open.map((a) => `${a.connectorNo}:${a.type}`));
  const statements: BatchItem<"sqlite">[] = [];
  const raised: RaisedAlarm[] = [];
  let unplugged = false;
  const markAbnormalLater = (ids: number[], reason: AbnormalReason) => statements.push(...(abnormalStatements(ctx, ids, reason) ?? []));
  for (const change of changes) {
    if (change.kind === "online") {
      statements.push(ctx.db.update(points).set({ online: change.online, onlineChangedAt: new Date(change.at) }).where(ofPoint(ctx, pointId)));
    } else if (change.kind === "boot") {
      const at = new Date(change.at);
      statements.push(ctx.db.update(points).set({ ...nullable(change.facts), lastBootAt: at, updatedAt: at }).where(ofPoint(ctx, pointId)));
      markAbnormalLater(
        active.map((t) => t.id),
        "rebooted",
      );
      active = [];
    } else {
      const s = change.status;
      const at = new Date(s.at);
      if (s.connectorId > 0) {
        statements.push(
          ctx.db
            .update(connectors)
            .set({ status: s.status, errorCode: s.errorCode, statusAt: at })
            .where(owned(ctx, connectors, eq(connectors.pointId, pointId), eq(connectors.connectorNo, s.connectorId))),
        );
      }
      const onConnector = [...openAlarms].filter((key) => key.startsWith(`${s.connectorId}:`));
      if (s.errorCode === "NoError") {
        // Only when one is open: most statuses clear nothing, and each statement costs the batch.
        if (onConnector.length > 0) {
          statements.push(
            ctx.db
              .update(alarms)
              .set({ status: "AutoRecovery", recoveredAt: at })
              .where(owned(ctx, alarms, eq(alarms.pointId, pointId), eq(alarms.connectorNo, s.connectorId), eq(alarms.status, "Undisposed"))),
          );
        }
        for (const key of onConnector) openAlarms.delete(key);
      } else if (!openAlarms.has(`${s.connectorId}:${s.errorCode}`)) {
        openAlarms.add(`${s.connectorId}:${s.errorCode}`);
        const level = OCPP_ERROR_LEVEL.has(s.errorCode) || s.status === "Faulted" ? ("ERROR" as const) : ("WARN" as const);
        raised.push({ connectorId: s.connectorId, level, type: s.errorCode, at: s.at });
        statements.push(
          ctx.db.insert(alarms).values(
            ownedRow(ctx, {
              pointId,
              connectorNo: s.connectorId,
              level,
              type: s.errorCode,
              message: [s.info, s.vendorErrorCode].filter(Boolean).join(" · ") || null,
              occurredAt: at,
            }),
          ),
        );
      }
      if (s.status === "Available" && s.connectorId > 0) {
        unplugged = true;
        statements.push(unplugStatement(ctx, pointId, s.connectorId, at));
        markAbnormalLater(
          active.filter((t) => t.connectorNo === s.connectorId).map((t) => t.id),
          "availableWithoutStop",
        );
        active = active.filter((t) => t.connectorNo !== s.connectorId);
      }
    }
  }
  return { statements, raised, unplugged };
}

/**
 * Applies the pending changes of several chargers of one operator, each in its order, with one
 * read and one write batch for all of them (docs/rules/ocpp.md "Hot path"; a charger's
 * ChangeWriter gathers them, workers/ocpp/change-writer.ts). Applying the same changes twice
 * changes nothing more (a flush cut short by an eviction is applied again): flags are set, not
 * toggled, an alarm is raised only when none of its type is open, and only ACTIVE transactions
 * are marked. Answers, per charger, the alarms it raised.
 */
export const applyChargersChanges = verb(system, async (ctx, batch: ChargerChanges[]): Promise<RaisedAlarm[][]> => {
  if (batch.some((b) => b.ctx.operator.id !== ctx.operator.id)) throw new Error("A batch of charger changes belongs to one operator");
  const { active, open } = await pointFacts(
    ctx,
    batch.filter((b) => b.changes.some((c) => c.kind !== "online")).map((b) => b.pointId),
  );
  const planned = batch.map((b) => changeStatements(b.ctx, b.pointId, b.changes, active.get(b.pointId) ?? [], open.get(b.pointId) ?? []));
  await batchOf(
    ctx.db,
    planned.flatMap((p) => p.statements),
  );
  for (const [i, { unplugged, raised }] of planned.entries()) {
    const { ctx: own, pointId } = batch[i];
    if (unplugged) await queueFinalPricing(own, pointId);
    // docs/rules/maintenance.md "Automatic work orders": after the alarms are written.
    if (raised.length > 0) await openWorkOrdersForAlarms(own, pointId, raised);
  }
  return planned.map((p) => p.raised);
});

/**
 * Sends the records an unplug made ready to the billing queue for their final price
 * (docs/rules/billing.md "Provisional and final"); a record missed here is priced by the cron.
 */
async function queueFinalPricing(ctx: SystemCtx, pointId: number) {
  const ready = await unpluggedRecords(ctx, pointId);
  if (ready.length === 0) return;
  await ctx.env.BILLING.sendBatch(
    ready.map(({ id }) => ({ body: { transactionId: id, operatorId: ctx.operator.id, operatorCode: ctx.operator.code } satisfies BillingMessage })),
  );
}

/** A StartTransaction from a charger whose boot was not Accepted: kept for review, never billed (OCPP 1.6 §4.2). */
const NOT_ACCEPTED: AbnormalReason = "notAccepted";

/**
 * The review and log rows of a start refused because the charger was not accepted. The record
 * is ABNORMAL from its insert on, so it can never be billed even if these rows were lost.
 */
function notAcceptedRecords(ctx: SystemCtx, start: { id: number; pointId: number }) {
  return [
    ctx.db.insert(ocppReviews).values(ownedRow(ctx, { pointId: start.pointId, kind: "ABNORMAL" as const, transactionId: start.id, detail: { reason: NOT_ACCEPTED } })),
    auditRow(ctx, { table: "transactions", module: "ocpp", type: "CREATE", newData: { ids: [start.id], status: "ABNORMAL", reason: NOT_ACCEPTED } }),
  ];
}

/** The idTagInfo for a registry entry in `facts`, with its expiry and parent when the tag is known and valid. */
function idTagInfoOf(tag: RegistryTag | undefined, facts: Omit<TagFacts, "tag">): IdTagInfo {
  const status = authorizationStatus({ ...facts, tag: tag ?? null });
  if (!tag || status === "Invalid") return { status };
  return {
    status,
    ...(tag.expiresAt !== null && { expiryDate: new Date(tag.expiresAt).toISOString() }),
    ...(tag.parentIdTag && { parentIdTag: tag.parentIdTag }),
  };
}

/**
 * The idTagInfo of Authorize and of StartTransaction at one point: the operator's registry (cards
 * with their holders, other tags), the charger's registration and, for a start only, the tag's
 * running sessions (OCPP 1.6 §7.2 keeps ConcurrentTx for StartTransaction), decided by
 * `authorizationStatus` for both.
 */
async function tagInfo(ctx: SystemCtx, pointId: number, idTag: string, chargerAccepted: boolean, asked: "Authorize" | "StartTransaction"): Promise<IdTagInfo> {
  const [{ tag, busy }, settings] = await Promise.all([registryFacts(ctx, pointId, idTag), settingsOf(ctx.db, ctx.operator.id)]);
  return idTagInfoOf(tag, { chargerAccepted, busy: asked === "StartTransaction" && busy, now: ctx.now(), cardsOnly: settings.parameters.rfCardRestriction });
}

export const authorize = verb(system, (ctx, pointId: number, idTag: string, chargerAccepted: boolean) => tagInfo(ctx, pointId, idTag, chargerAccepted, "Authorize"));

export interface StartFacts {
  connectorId: number;
  idTag: string;
  meterStart: number;
  timestamp: string;
  reservationId?: number;
}

/** The current version of the strategy a point charges by (none when it has none). */
function currentVersionOf(ctx: SystemCtx, pointId: number) {
  return ctx.db
    .select({ id: chargeStrategies.currentVersionId })
    .from(chargeStrategies)
    .where(
      owned(
        ctx,
        chargeStrategies,
        isNull(chargeStrategies.deletedAt),
        eq(chargeStrategies.id, ctx.db.select({ id: points.chargeStrategyId }).from(points).where(ofPoint(ctx, pointId))),
      ),
    )
    .limit(1);
}

/**
 * StartTransaction (OCPP 1.6 §6.46): always an integer transactionId, also for a refused tag;
 * the same id for a repeated identical start, found through the unique index. A charger whose
 * boot was not Accepted gets an id too, drawn from the same sequence, but its record is ABNORMAL
 * from the start (`notAccepted`, with a review row): never active, never billed, and its tag is
 * not made busy (OCPP 1.6 §4.2).
 */
export const startTransaction = verb(system, async (ctx, pointId: number, start: StartFacts, chargerAccepted: boolean) => {
  const startAt = new Date(start.timestamp);
  const key = owned(
    ctx,
    transactions,
    eq(transactions.pointId, pointId),
    eq(transactions.connectorNo, start.connectorId),
    eq(transactions.idTag, start.idTag),
    eq(transactions.meterStartWh, start.meterStart),
    eq(transactions.startAt, startAt),
  );
  const [idTagInfo, [repeat], settings] = await Promise.all([
    tagInfo(ctx, pointId, start.idTag, chargerAccepted, "StartTransaction"),
    ctx.db.select({ id: transactions.id, authStatus: transactions.authStatus, status: transactions.status }).from(transactions).where(key).limit(1),
    settingsOf(ctx.db, ctx.operator.id),
  ]);
  if (repeat) {
    const status = repeat.authStatus as AuthorizationStatus;
    return { transactionId: repeat.id, idTagInfo: { ...idTagInfo, status }, repeated: true, active: repeat.status === "ACTIVE" };
  }
  const insertTransaction = ctx.db
    .insert(transactions)
    .values(
      ownedRow(ctx, {
        pointId,
        connectorNo: start.connectorId,
        idTag: start.idTag,
        authStatus: idTagInfo.status,
        reservationId: start.reservationId ?? null,
        meterStartWh: start.meterStart,
        startAt,
        ...(!chargerAccepted && { status: "ABNORMAL" as const, abnormalReason: NOT_ACCEPTED }),
        // The strategy version of the point as the server receives the start, read by the insert
        // itself: a charger's timestamp never chooses it (docs/decisions/0022-strategies-are-versioned.md).
        strategySnapshot: { takenAt: new Date(ctx.now()).toISOString() },
        strategyVersionId: sql<number | null>`(${currentVersionOf(ctx, pointId)})`,
      }),
    )
    .onConflictDoNothing()
    .returning({ id: transactions.id, pointId: transactions.pointId });
  // Its charge record, in the operator's currency, in the same batch: the record finds the
  // transaction by the start's unique key, so neither row ever stands without the other
  // (docs/rules/records.md "Record states"). A repeat races to the same rows and changes nothing.
  const sameStart = ctx.db.select({ id: transactions.id }).from(transactions).where(key).limit(1);
  const opened = { transactionId: sql<number>`(${sameStart})`, pointId, connectorNo: start.connectorId, idTag: start.idTag, startAt, abnormal: !chargerAccepted };
  const [[created], , , [found]] = await ctx.db.batch([insertTransaction, ...openRecordStatements(ctx, opened, settings.currencyCode, settings.timeZone), sameStart]);
  // The review rows of a refused start follow; the record is ABNORMAL from its insert on, whatever happens to them.
  if (created && !chargerAccepted) await batchOf(ctx.db, notAcceptedRecords(ctx, created));
  // A card on file is pre-authorised through the queue (docs/rules/payments.md "Sessions paid by card").
  if (created && chargerAccepted && idTagInfo.status === "Accepted") await queueAuthorisation(ctx, created.id);
  const transactionId = found.id;
  return { transactionId, idTagInfo, repeated: !created, active: chargerAccepted };
});

export interface StopFacts {
  transactionId: number;
  idTag?: string;
  meterStop: number;
  timestamp: string;
  reason?: string;
}

/**
 * StopTransaction (OCPP 1.6 §6.47): closes the transaction of this point, which billing then
 * prices. A transaction started while the charger was not accepted stays as it was, with the stop
 * kept for review and nothing to bill; one that is unknown (or another point's) is recorded for
 * review. Every stop is answered normally.
 */
export const stopTransaction = verb(system, async (ctx, pointId: number, stop: StopFacts) => {
  // The registry's word on the tag: its own session does not make it busy.
  const idTagInfo = stop.idTag ? idTagInfoOf((await registryFacts(ctx, pointId, stop.idTag)).tag, { chargerAccepted: true, busy: false, now: ctx.now() }) : undefined;
  const ofThisPoint = owned(ctx, transactions, eq(transactions.id, stop.transactionId), eq(transactions.pointId, pointId));
  const [closed] = await ctx.db
    .update(transactions)
    .set({
      meterStopWh: stop.meterStop,
      stopAt: new Date(stop.timestamp),
      stopReason: stop.reason ?? "Local",
      status: "COMPLETED",
    })
    .where(
      owned(
        ctx,
        transactions,
        ofThisPoint,
        ne(transactions.status, "COMPLETED"),
        or(isNull(transactions.abnormalReason), ne(transactions.abnormalReason, NOT_ACCEPTED)),
      ),
    )
    .returning({ id: transactions.id, connectorNo: transactions.connectorNo });
  if (closed) return { known: true as const, billable: true, connectorId: closed.connectorNo, idTagInfo };
  const [already] = await ctx.db
    .select({ connectorNo: transactions.connectorNo, abnormalReason: transactions.abnormalReason })
    .from(transactions)
    .where(ofThisPoint)
    .limit(1);
  if (already?.abnormalReason === NOT_ACCEPTED) {
    await ctx.db
      .insert(ocppReviews)
      .values(ownedRow(ctx, { pointId, kind: "ABNORMAL" as const, transactionId: stop.transactionId, detail: { reason: NOT_ACCEPTED, stop: { ...stop } } }));
    return { known: true as const, billable: false, connectorId: already.connectorNo, idTagInfo };
  }
  if (already) return { known: true as const, billable: true, connectorId: already.connectorNo, idTagInfo, repeated: true };
  await ctx.db.insert(ocppReviews).values(ownedRow(ctx, { pointId, kind: "UNKNOWN_STOP" as const, transactionId: stop.transactionId, detail: { ...stop } }));
  return { known: false as const, idTagInfo };
});

/** A register that went backwards is kept for review, never billed negative (docs/rules/ocpp.md "Meter values"). */
export const recordRegisterBackwards = verb(system, async (ctx, pointId: number, transactionId: number, connectorId: number) => {
  await ctx.db.insert(ocppReviews).values(ownedRow(ctx, { pointId, kind: "REGISTER_BACKWARDS" as const, transactionId, detail: { connectorId } }));
});

/** Diagnostics upload statuses a notification may still move: 1 waiting, 2 uploading. */
const UPLOAD_IN_PROGRESS = [1, 2];

export const recordPointEvent = verb(
  system,
  async (ctx, pointId: number, kind: "FirmwareStatus" | "DiagnosticsStatus" | "DataTransfer", status: string | null, detail: Record<string, unknown>) => {
    const event = ctx.db.insert(pointEvents).values(ownedRow(ctx, { pointId, kind, status, detail }));
    if (kind === "DataTransfer") return void (await event);
    const latest = kind === "FirmwareStatus" ? { firmwareStatus: status } : { diagnosticsStatus: status };
    const upload = kind === "DiagnosticsStatus" && status ? DIAGNOSIS_STATUS_OF[status] : undefined;
    const point = ctx.db.update(points).set(latest).where(ofPoint(ctx, pointId));
    if (upload === undefined) return void (await ctx.db.batch([event, point]));
    // The charger works on the request it got last: a notification moves the point's newest request
    // while that one is in progress, and never an older request's row (docs/rules/equipment.md).
    const newestRequest = ctx.db
      .select({ id: diagnostics.id })
      .from(diagnostics)
      .where(owned(ctx, diagnostics, eq(diagnostics.pointId, pointId)))
      .orderBy(desc(diagnostics.id))
      .limit(1);
    await ctx.db.batch([
      event,
      point,
      ctx.db
        .update(diagnostics)
        .set({ status: upload, updatedAt: new Date(ctx.now()) })
        .where(owned(ctx, diagnostics, eq(diagnostics.id, newestRequest), inArray(diagnostics.status, UPLOAD_IN_PROGRESS))),
    ]);
  },
);

/**
 * Running transactions of every operator's points that have been offline since before
 * `silentSince`, for the cron to mark ABNORMAL operator by operator.
 */
export const silentTransactions = verb(system, async (ctx, silentSince: Date) =>
  ctx.db
    .select({ id: transactions.id, operatorId: transactions.operatorId, operatorCode: operators.code })
    .from(transactions)
    .innerJoin(points, eq(points.id, transactions.pointId))
    .innerJoin(operators, eq(operators.id, transactions.operatorId))
    // Housekeeping looks at every operator's chargers; each operator's marking is its own verb call.
    .where(acrossTenants(eq(transactions.status, "ACTIVE"), eq(points.online, false), lt(points.onlineChangedAt, silentSince)))
    .limit(500),
);

/** Marks an operator's silent transactions ABNORMAL, with review and operation-log rows. */
export const markSilent = verb(system, (ctx, ids: number[]) => markAbnormal(ctx, ids, "silent"));
