import { and, desc, eq, inArray, lt, ne } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { alarms, connectors, diagnostics, idTags, ocppReviews, pointEvents, points, transactions } from "../../../db/schema";
import { DIAGNOSIS_STATUS_OF } from "../../../domain/schemas/equipment";
import { settingsOf } from "../../../tenants/resolve";
import type { ChargerIdentity } from "../../ocpp/identity";

/**
 * The D1 records a charger's messages change, written by its Durable Object with the
 * charger's identity as a system actor. Only state changes come here (boot, status changes,
 * transaction start and stop); Heartbeat and MeterValues never do (ARCHITECTURE.md §5).
 */
const ofPoint = (identity: ChargerIdentity) =>
  and(eq(points.id, identity.pointId), eq(points.operatorId, identity.operatorId));

export type AuthorizationStatus = "Accepted" | "Blocked" | "Expired" | "Invalid" | "ConcurrentTx";
export interface IdTagInfo {
  status: AuthorizationStatus;
  expiryDate?: string;
  parentIdTag?: string;
}

export async function bootSettings(db: Db, identity: ChargerIdentity) {
  const [[point], settings] = await Promise.all([
    db.select({ status: points.status }).from(points).where(ofPoint(identity)).limit(1),
    settingsOf(db, identity.operatorId),
  ]);
  return {
    enabled: point?.status === "VALID",
    heartbeatIntervalS: settings.heartbeatIntervalS,
    disabledPointBoot: settings.disabledPointBoot,
  };
}

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

/** A boot saves what the charger says of itself; its open transactions cannot survive a reboot. */
export async function recordBoot(db: Db, identity: ChargerIdentity, facts: BootFacts, now: number) {
  const [, abnormal] = await db.batch([
    db
      .update(points)
      .set({ ...nullable(facts), lastBootAt: new Date(now), updatedAt: new Date(now) })
      .where(ofPoint(identity)),
    db
      .update(transactions)
      .set({ status: "ABNORMAL", abnormalReason: "rebooted" })
      .where(and(eq(transactions.pointId, identity.pointId), eq(transactions.status, "ACTIVE")))
      .returning({ id: transactions.id }),
  ]);
  await reviewAbnormal(db, identity, abnormal, "rebooted");
  return abnormal.map((t) => t.id);
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

async function reviewAbnormal(db: Db, identity: ChargerIdentity, rows: { id: number }[], reason: string) {
  if (rows.length === 0) return;
  await db.insert(ocppReviews).values(
    rows.map((t) => ({
      operatorId: identity.operatorId,
      pointId: identity.pointId,
      kind: "ABNORMAL" as const,
      transactionId: t.id,
      detail: { reason },
    })),
  );
}

export function setOnline(db: Db, identity: ChargerIdentity, online: boolean, now: number) {
  return db.update(points).set({ online, onlineChangedAt: new Date(now) }).where(ofPoint(identity));
}

/** OCPP 1.6 §7.6 ChargePointErrorCode → alarm level (SPEC.md §3 alarm). */
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
export async function recordStatus(db: Db, identity: ChargerIdentity, change: StatusChange) {
  const at = new Date(change.at);
  const openAlarms = and(
    eq(alarms.pointId, identity.pointId),
    eq(alarms.connectorNo, change.connectorId),
    eq(alarms.status, "Undisposed"),
  );
  const statements = [];
  if (change.connectorId > 0) {
    statements.push(
      db
        .update(connectors)
        .set({ status: change.status, errorCode: change.errorCode, statusAt: at })
        .where(and(eq(connectors.pointId, identity.pointId), eq(connectors.connectorNo, change.connectorId))),
    );
  }
  let raised: { id: number; level: string; type: string } | undefined;
  if (change.errorCode === "NoError") {
    statements.push(db.update(alarms).set({ status: "AutoRecovery", recoveredAt: at }).where(openAlarms));
  } else {
    const [open] = await db
      .select({ id: alarms.id })
      .from(alarms)
      .where(and(openAlarms, eq(alarms.type, change.errorCode)))
      .limit(1);
    if (!open) {
      const level = ERROR_LEVEL.has(change.errorCode) || change.status === "Faulted" ? ("ERROR" as const) : ("WARN" as const);
      raised = { id: 0, level, type: change.errorCode };
      statements.push(
        db.insert(alarms).values({
          operatorId: identity.operatorId,
          pointId: identity.pointId,
          connectorNo: change.connectorId,
          level,
          type: change.errorCode,
          message: [change.info, change.vendorErrorCode].filter(Boolean).join(" · ") || null,
          occurredAt: at,
        }),
      );
    }
  }
  const forgotten =
    change.status === "Available" && change.connectorId > 0
      ? db
          .update(transactions)
          .set({ status: "ABNORMAL", abnormalReason: "availableWithoutStop" })
          .where(
            and(
              eq(transactions.pointId, identity.pointId),
              eq(transactions.connectorNo, change.connectorId),
              eq(transactions.status, "ACTIVE"),
            ),
          )
          .returning({ id: transactions.id })
      : undefined;
  if (statements.length) await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  const abnormal = forgotten ? await forgotten : [];
  await reviewAbnormal(db, identity, abnormal, "availableWithoutStop");
  return { raised, abnormal: abnormal.map((t) => t.id) };
}

/** Authorize and the start/stop idTagInfo: the operator's registry (ARCHITECTURE.md §10). */
export async function authorize(db: Db, identity: ChargerIdentity, idTag: string, now: number): Promise<IdTagInfo> {
  return (await lookUpTag(db, identity, idTag, now)).info;
}

async function lookUpTag(db: Db, identity: ChargerIdentity, idTag: string, now: number) {
  const [tag] = await db
    .select()
    .from(idTags)
    .where(and(eq(idTags.operatorId, identity.operatorId), eq(idTags.idTag, idTag)))
    .limit(1);
  if (!tag) return { info: { status: "Invalid" } as IdTagInfo, kind: null };
  const info: IdTagInfo = { status: tag.status };
  if (tag.expiryDate) info.expiryDate = tag.expiryDate.toISOString();
  if (tag.parentIdTag) info.parentIdTag = tag.parentIdTag;
  if (tag.status === "Accepted" && tag.expiryDate && tag.expiryDate.getTime() <= now) info.status = "Expired";
  return { info, kind: tag.kind };
}

export interface StartFacts {
  connectorId: number;
  idTag: string;
  meterStart: number;
  timestamp: string;
  reservationId?: number;
}

/**
 * StartTransaction (OCPP 1.6 §6.46): always an integer transactionId, also for a refused tag;
 * the same id for a repeated identical start, found through the unique index.
 */
export async function startTransaction(db: Db, identity: ChargerIdentity, start: StartFacts, now: number) {
  const tag = await lookUpTag(db, identity, start.idTag, now);
  let idTagInfo = tag.info;
  const startAt = new Date(start.timestamp);
  const key = and(
    eq(transactions.pointId, identity.pointId),
    eq(transactions.connectorNo, start.connectorId),
    eq(transactions.idTag, start.idTag),
    eq(transactions.meterStartWh, start.meterStart),
    eq(transactions.startAt, startAt),
  );
  const [repeat] = await db.select({ id: transactions.id, authStatus: transactions.authStatus }).from(transactions).where(key).limit(1);
  if (repeat) return { transactionId: repeat.id, idTagInfo: { ...idTagInfo, status: repeat.authStatus as AuthorizationStatus }, repeated: true };

  // One driver's tag charges one car at a time; the operator's remote-start tag starts many.
  if (idTagInfo.status === "Accepted" && tag.kind !== "REMOTE") {
    const [busy] = await db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.operatorId, identity.operatorId), eq(transactions.idTag, start.idTag), eq(transactions.status, "ACTIVE")))
      .limit(1);
    if (busy) idTagInfo = { ...idTagInfo, status: "ConcurrentTx" };
  }
  const [created] = await db
    .insert(transactions)
    .values({
      operatorId: identity.operatorId,
      pointId: identity.pointId,
      connectorNo: start.connectorId,
      idTag: start.idTag,
      authStatus: idTagInfo.status,
      reservationId: start.reservationId ?? null,
      meterStartWh: start.meterStart,
      startAt,
      // The pricing engine reads the strategy in force at start (ARCHITECTURE.md §7).
      strategySnapshot: { takenAt: new Date(now).toISOString(), strategyId: null },
    })
    .onConflictDoNothing()
    .returning({ id: transactions.id });
  const transactionId = created?.id ?? (await db.select({ id: transactions.id }).from(transactions).where(key).limit(1))[0].id;
  return { transactionId, idTagInfo, repeated: !created };
}

export interface StopFacts {
  transactionId: number;
  idTag?: string;
  meterStop: number;
  timestamp: string;
  reason?: string;
}

/**
 * StopTransaction (OCPP 1.6 §6.47): closes the transaction of this point; one that is unknown
 * (or another point's) is recorded for review and still answered normally.
 */
export async function stopTransaction(db: Db, identity: ChargerIdentity, stop: StopFacts, now: number) {
  const idTagInfo = stop.idTag ? await authorize(db, identity, stop.idTag, now) : undefined;
  const [closed] = await db
    .update(transactions)
    .set({
      meterStopWh: stop.meterStop,
      stopAt: new Date(stop.timestamp),
      stopReason: stop.reason ?? "Local",
      status: "COMPLETED",
    })
    .where(
      and(
        eq(transactions.id, stop.transactionId),
        eq(transactions.pointId, identity.pointId),
        eq(transactions.operatorId, identity.operatorId),
        ne(transactions.status, "COMPLETED"),
      ),
    )
    .returning({ id: transactions.id, connectorNo: transactions.connectorNo });
  if (closed) return { known: true as const, connectorId: closed.connectorNo, idTagInfo };
  const [already] = await db
    .select({ connectorNo: transactions.connectorNo })
    .from(transactions)
    .where(and(eq(transactions.id, stop.transactionId), eq(transactions.pointId, identity.pointId)))
    .limit(1);
  if (already) return { known: true as const, connectorId: already.connectorNo, idTagInfo, repeated: true };
  await db.insert(ocppReviews).values({
    operatorId: identity.operatorId,
    pointId: identity.pointId,
    kind: "UNKNOWN_STOP",
    transactionId: stop.transactionId,
    detail: { ...stop },
  });
  return { known: false as const, idTagInfo };
}

export async function recordPointEvent(
  db: Db,
  identity: ChargerIdentity,
  kind: "FirmwareStatus" | "DiagnosticsStatus" | "DataTransfer",
  status: string | null,
  detail: Record<string, unknown>,
) {
  const event = db.insert(pointEvents).values({ operatorId: identity.operatorId, pointId: identity.pointId, kind, status, detail });
  if (kind === "DataTransfer") return event;
  const latest = kind === "FirmwareStatus" ? { firmwareStatus: status } : { diagnosticsStatus: status };
  const upload = kind === "DiagnosticsStatus" && status ? DIAGNOSIS_STATUS_OF[status] : undefined;
  if (upload === undefined) return db.batch([event, db.update(points).set(latest).where(ofPoint(identity))]);
  // SPEC.md §4: the upload status of the point's latest diagnostics request follows the charger's notification.
  const latestRequest = db
    .select({ id: diagnostics.id })
    .from(diagnostics)
    .where(and(eq(diagnostics.operatorId, identity.operatorId), eq(diagnostics.pointId, identity.pointId)))
    .orderBy(desc(diagnostics.id))
    .limit(1);
  return db.batch([
    event,
    db.update(points).set(latest).where(ofPoint(identity)),
    db.update(diagnostics).set({ status: upload, updatedAt: new Date() }).where(eq(diagnostics.id, latestRequest)),
  ]);
}

/** Transactions of points offline since before `silentSince` are marked ABNORMAL by the cron (issue #3). */
export async function markSilentTransactions(db: Db, silentSince: Date) {
  const stale = await db
    .select({ id: transactions.id, pointId: transactions.pointId, operatorId: transactions.operatorId })
    .from(transactions)
    .innerJoin(points, eq(points.id, transactions.pointId))
    .where(and(eq(transactions.status, "ACTIVE"), eq(points.online, false), lt(points.onlineChangedAt, silentSince)))
    .limit(500);
  if (stale.length === 0) return [];
  await db.batch([
    db
      .update(transactions)
      .set({ status: "ABNORMAL", abnormalReason: "silent" })
      .where(inArray(transactions.id, stale.map((s) => s.id))),
    db.insert(ocppReviews).values(
      stale.map((s) => ({ operatorId: s.operatorId, pointId: s.pointId, kind: "ABNORMAL" as const, transactionId: s.id, detail: { reason: "silent" } })),
    ),
  ]);
  return stale.map((s) => s.id);
}
