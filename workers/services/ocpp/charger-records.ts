import { desc, eq, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { alarms, connectors, diagnostics, idTags, ocppReviews, operators, pointEvents, points, transactions } from "../../../db/schema";
import { batchOf } from "../../../db/statements";
import { authorizationStatus, type AuthorizationStatus, type IdTagInfo, type TagFacts } from "../../../domain/ocpp";
import { DIAGNOSIS_STATUS_OF } from "../../../domain/schemas/equipment";
import { inService } from "../../../domain/operator-validity";
import { operatorById, settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { SystemCtx } from "../context";
import { verb } from "../verb";

/**
 * The D1 records a charger's messages change, written through verbs whose actor is the system
 * (`charger <serial>`), like every other caller (docs/architecture.md "One door"). Only state
 * changes come here (boot, status changes, transaction start and stop); Heartbeat and
 * MeterValues never do (docs/rules/ocpp.md "Hot path"). A change an operator would want to
 * see, a transaction marked ABNORMAL, leaves an operation-log row with the system as actor.
 */
const system = { actors: ["system"] } as const;

const ofPoint = (ctx: SystemCtx, pointId: number) => owned(ctx, points, eq(points.id, pointId));

/** What the Worker finds of a connecting charger before any tenant is known (its serial is unique). */
export const findCharger = verb({ actors: ["public"] }, async (ctx, serialNumber: string) => {
  const [row] = await ctx.db
    .select({ point: points, operatorCode: operators.code })
    .from(points)
    .innerJoin(operators, eq(operators.id, points.operatorId))
    // A chargeBoxId names one point across the platform: the lookup that finds the tenant.
    .where(acrossTenants(eq(points.serialNumber, serialNumber)))
    .limit(1);
  return row;
});

export const bootSettings = verb(system, async (ctx, pointId: number) => {
  const [[point], settings, operator] = await Promise.all([
    ctx.db.select({ status: points.status }).from(points).where(ofPoint(ctx, pointId)).limit(1),
    settingsOf(ctx.db, ctx.operator.id),
    operatorById(ctx.db, ctx.operator.id),
  ]);
  return {
    /** An operator out of service has its chargers Rejected (docs/rules/platform.md "Validity"). */
    operatorInService: Boolean(operator && inService(operator, ctx.now())),
    enabled: point?.status === "VALID",
    heartbeatIntervalS: settings.heartbeatIntervalS,
    disabledPointBoot: settings.disabledPointBoot,
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
 * Marks these running transactions ABNORMAL, with a review row each and one operation-log row, in
 * one batch: the review rows are inserted from the same rows the update then changes, so the
 * change never stands without its record (docs/rules/ocpp.md "Transactions"). Answers the ids
 * it changed.
 */
async function markAbnormal(ctx: SystemCtx, ids: number[], reason: AbnormalReason) {
  if (ids.length === 0) return [];
  const running = owned(ctx, transactions, inArray(transactions.id, ids), eq(transactions.status, "ACTIVE"));
  const [, , changed] = await ctx.db.batch([
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
  ]);
  return changed.map((t) => t.id);
}

const runningOn = (ctx: SystemCtx, pointId: number, connectorNo?: number) =>
  ctx.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      owned(
        ctx,
        transactions,
        eq(transactions.pointId, pointId),
        connectorNo === undefined ? undefined : eq(transactions.connectorNo, connectorNo),
        eq(transactions.status, "ACTIVE"),
      ),
    );

/** A boot saves what the charger says of itself; its open transactions cannot survive a reboot. */
export const recordBoot = verb(system, async (ctx, pointId: number, facts: BootFacts) => {
  const now = new Date(ctx.now());
  const [, running] = await ctx.db.batch([
    ctx.db
      .update(points)
      .set({ ...nullable(facts), lastBootAt: now, updatedAt: now })
      .where(ofPoint(ctx, pointId)),
    runningOn(ctx, pointId),
  ]);
  return markAbnormal(
    ctx,
    running.map((t) => t.id),
    "rebooted",
  );
});

export const setOnline = verb(system, async (ctx, pointId: number, online: boolean) => {
  await ctx.db.update(points).set({ online, onlineChangedAt: new Date(ctx.now()) }).where(ofPoint(ctx, pointId));
});

/** OCPP 1.6 §7.6 ChargePointErrorCode → alarm level. */
const ERROR_LEVEL = new Set([
  "ConnectorLockFailure",
  "GroundFailure",
  "HighTemperature",
  "InternalError",
  "OverCurrentFailure",
  "OverVoltage",
  "PowerMeterFailure",
  "PowerSwitchFailure",
  "UnderVoltage",
]);

export interface StatusChange {
  connectorId: number;
  status: string;
  errorCode: string;
  info?: string;
  vendorErrorCode?: string;
  at: number;
}

/**
 * A connector's status change: the connector row (connector 0 is the point itself), alarms
 * raised by an error code and closed when it clears (AutoRecovery), and a transaction the
 * charger forgot to stop when the connector comes back Available (marked ABNORMAL).
 */
export const recordStatus = verb(system, async (ctx, pointId: number, change: StatusChange) => {
  const at = new Date(change.at);
  const openAlarms = owned(ctx, alarms, eq(alarms.pointId, pointId), eq(alarms.connectorNo, change.connectorId), eq(alarms.status, "Undisposed"));
  const statements = [];
  if (change.connectorId > 0) {
    statements.push(
      ctx.db
        .update(connectors)
        .set({ status: change.status, errorCode: change.errorCode, statusAt: at })
        .where(owned(ctx, connectors, eq(connectors.pointId, pointId), eq(connectors.connectorNo, change.connectorId))),
    );
  }
  let raised: { level: string; type: string } | undefined;
  if (change.errorCode === "NoError") {
    statements.push(ctx.db.update(alarms).set({ status: "AutoRecovery", recoveredAt: at }).where(openAlarms));
  } else {
    const [open] = await ctx.db.select({ id: alarms.id }).from(alarms).where(owned(ctx, alarms, openAlarms, eq(alarms.type, change.errorCode))).limit(1);
    if (!open) {
      const level = ERROR_LEVEL.has(change.errorCode) || change.status === "Faulted" ? ("ERROR" as const) : ("WARN" as const);
      raised = { level, type: change.errorCode };
      statements.push(
        ctx.db.insert(alarms).values(
          ownedRow(ctx, {
            pointId,
            connectorNo: change.connectorId,
            level,
            type: change.errorCode,
            message: [change.info, change.vendorErrorCode].filter(Boolean).join(" · ") || null,
            occurredAt: at,
          }),
        ),
      );
    }
  }
  await batchOf(ctx.db, statements);
  const forgotten = change.status === "Available" && change.connectorId > 0 ? await runningOn(ctx, pointId, change.connectorId) : [];
  const abnormal = await markAbnormal(
    ctx,
    forgotten.map((t) => t.id),
    "availableWithoutStop",
  );
  return { raised, abnormal };
});

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

async function registryEntry(ctx: SystemCtx, idTag: string) {
  const [tag] = await ctx.db.select().from(idTags).where(owned(ctx, idTags, eq(idTags.idTag, idTag))).limit(1);
  return tag;
}

/** Whether the tag is in an active session anywhere in the operator's network; a start it was refused does not count. */
async function tagBusy(ctx: SystemCtx, idTag: string) {
  const [busy] = await ctx.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(owned(ctx, transactions, eq(transactions.idTag, idTag), eq(transactions.status, "ACTIVE"), eq(transactions.authStatus, "Accepted")))
    .limit(1);
  return busy !== undefined;
}

type RegistryEntry = typeof idTags.$inferSelect;

/** The idTagInfo for a tag in `facts`, with its expiry and parent when the tag is known and valid. */
function idTagInfoOf(tag: RegistryEntry | undefined, facts: Omit<TagFacts, "tag">): IdTagInfo {
  const known = tag && { status: tag.status, expiresAt: tag.expiryDate?.getTime() ?? null, remote: tag.kind === "REMOTE" };
  const status = authorizationStatus({ ...facts, tag: known ?? null });
  if (!tag || status === "Invalid") return { status };
  return {
    status,
    ...(tag.expiryDate && { expiryDate: tag.expiryDate.toISOString() }),
    ...(tag.parentIdTag && { parentIdTag: tag.parentIdTag }),
  };
}

/**
 * The idTagInfo of Authorize and of StartTransaction: the operator's registry, the charger's
 * registration and the tag's running sessions, decided by `authorizationStatus` for both.
 */
async function tagInfo(ctx: SystemCtx, idTag: string, chargerAccepted: boolean): Promise<IdTagInfo> {
  const [tag, busy] = await Promise.all([registryEntry(ctx, idTag), tagBusy(ctx, idTag)]);
  return idTagInfoOf(tag, { chargerAccepted, busy, now: ctx.now() });
}

export const authorize = verb(system, (ctx, idTag: string, chargerAccepted: boolean) => tagInfo(ctx, idTag, chargerAccepted));

export interface StartFacts {
  connectorId: number;
  idTag: string;
  meterStart: number;
  timestamp: string;
  reservationId?: number;
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
  const [idTagInfo, [repeat]] = await Promise.all([
    tagInfo(ctx, start.idTag, chargerAccepted),
    ctx.db.select({ id: transactions.id, authStatus: transactions.authStatus, status: transactions.status }).from(transactions).where(key).limit(1),
  ]);
  if (repeat) {
    const status = repeat.authStatus as AuthorizationStatus;
    return { transactionId: repeat.id, idTagInfo: { ...idTagInfo, status }, repeated: true, active: repeat.status === "ACTIVE" };
  }
  const [created] = await ctx.db
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
        // The pricing engine reads the strategy in force at start (docs/rules/ocpp.md "Transactions").
        strategySnapshot: { takenAt: new Date(ctx.now()).toISOString(), strategyId: null },
      }),
    )
    .onConflictDoNothing()
    .returning({ id: transactions.id, pointId: transactions.pointId });
  if (created && !chargerAccepted) await batchOf(ctx.db, notAcceptedRecords(ctx, created));
  const transactionId = created?.id ?? (await ctx.db.select({ id: transactions.id }).from(transactions).where(key).limit(1))[0].id;
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
  const idTagInfo = stop.idTag ? idTagInfoOf(await registryEntry(ctx, stop.idTag), { chargerAccepted: true, busy: false, now: ctx.now() }) : undefined;
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
