import { and, desc, eq, inArray, isNull, lt, ne, or } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { alarms, connectors, diagnostics, idTags, ocppReviews, pointEvents, points, transactions } from "../../../db/schema";
import { authorizationStatus, type AuthorizationStatus, type IdTagInfo, type TagFacts } from "../../../domain/ocpp";
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

/** A StartTransaction from a charger whose boot was not Accepted: kept for review, never billed (OCPP 1.6 §4.2). */
const NOT_ACCEPTED = "notAccepted";

async function registryEntry(db: Db, identity: ChargerIdentity, idTag: string) {
  const [tag] = await db
    .select()
    .from(idTags)
    .where(and(eq(idTags.operatorId, identity.operatorId), eq(idTags.idTag, idTag)))
    .limit(1);
  return tag;
}

/** Whether the tag is in an active session anywhere in the operator's network; a start it was refused does not count. */
async function tagBusy(db: Db, identity: ChargerIdentity, idTag: string) {
  const [busy] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        eq(transactions.operatorId, identity.operatorId),
        eq(transactions.idTag, idTag),
        eq(transactions.status, "ACTIVE"),
        eq(transactions.authStatus, "Accepted"),
      ),
    )
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
export async function authorize(db: Db, identity: ChargerIdentity, idTag: string, now: number, chargerAccepted: boolean): Promise<IdTagInfo> {
  const [tag, busy] = await Promise.all([registryEntry(db, identity, idTag), tagBusy(db, identity, idTag)]);
  return idTagInfoOf(tag, { chargerAccepted, busy, now });
}

/** The registry's word on a tag, as StopTransaction reports it: its own session does not make it busy. */
async function registryInfo(db: Db, identity: ChargerIdentity, idTag: string, now: number): Promise<IdTagInfo> {
  return idTagInfoOf(await registryEntry(db, identity, idTag), { chargerAccepted: true, busy: false, now });
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
 * the same id for a repeated identical start, found through the unique index. A charger whose
 * boot was not Accepted gets an id too, drawn from the same sequence, but its record is ABNORMAL
 * from the start (`notAccepted`, with a review row): never active, never billed, and its tag is
 * not made busy (OCPP 1.6 §4.2).
 */
export async function startTransaction(db: Db, identity: ChargerIdentity, start: StartFacts, now: number, chargerAccepted: boolean) {
  const startAt = new Date(start.timestamp);
  const key = and(
    eq(transactions.pointId, identity.pointId),
    eq(transactions.connectorNo, start.connectorId),
    eq(transactions.idTag, start.idTag),
    eq(transactions.meterStartWh, start.meterStart),
    eq(transactions.startAt, startAt),
  );
  const [idTagInfo, [repeat]] = await Promise.all([
    authorize(db, identity, start.idTag, now, chargerAccepted),
    db.select({ id: transactions.id, authStatus: transactions.authStatus, status: transactions.status }).from(transactions).where(key).limit(1),
  ]);
  if (repeat) {
    const status = repeat.authStatus as AuthorizationStatus;
    return { transactionId: repeat.id, idTagInfo: { ...idTagInfo, status }, repeated: true, active: repeat.status === "ACTIVE" };
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
      ...(!chargerAccepted && { status: "ABNORMAL" as const, abnormalReason: NOT_ACCEPTED }),
      // The pricing engine reads the strategy in force at start (ARCHITECTURE.md §7).
      strategySnapshot: { takenAt: new Date(now).toISOString(), strategyId: null },
    })
    .onConflictDoNothing()
    .returning({ id: transactions.id });
  if (created && !chargerAccepted) await reviewAbnormal(db, identity, [created], NOT_ACCEPTED);
  const transactionId = created?.id ?? (await db.select({ id: transactions.id }).from(transactions).where(key).limit(1))[0].id;
  return { transactionId, idTagInfo, repeated: !created, active: chargerAccepted };
}

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
export async function stopTransaction(db: Db, identity: ChargerIdentity, stop: StopFacts, now: number) {
  const idTagInfo = stop.idTag ? await registryInfo(db, identity, stop.idTag, now) : undefined;
  const ofThisPoint = and(eq(transactions.id, stop.transactionId), eq(transactions.pointId, identity.pointId), eq(transactions.operatorId, identity.operatorId));
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
        ofThisPoint,
        ne(transactions.status, "COMPLETED"),
        or(isNull(transactions.abnormalReason), ne(transactions.abnormalReason, NOT_ACCEPTED)),
      ),
    )
    .returning({ id: transactions.id, connectorNo: transactions.connectorNo });
  if (closed) return { known: true as const, billable: true, connectorId: closed.connectorNo, idTagInfo };
  const [already] = await db
    .select({ connectorNo: transactions.connectorNo, abnormalReason: transactions.abnormalReason })
    .from(transactions)
    .where(ofThisPoint)
    .limit(1);
  if (already?.abnormalReason === NOT_ACCEPTED) {
    await db.insert(ocppReviews).values({
      operatorId: identity.operatorId,
      pointId: identity.pointId,
      kind: "ABNORMAL",
      transactionId: stop.transactionId,
      detail: { reason: NOT_ACCEPTED, stop: { ...stop } },
    });
    return { known: true as const, billable: false, connectorId: already.connectorNo, idTagInfo };
  }
  if (already) return { known: true as const, billable: true, connectorId: already.connectorNo, idTagInfo, repeated: true };
  await db.insert(ocppReviews).values({
    operatorId: identity.operatorId,
    pointId: identity.pointId,
    kind: "UNKNOWN_STOP",
    transactionId: stop.transactionId,
    detail: { ...stop },
  });
  return { known: false as const, idTagInfo };
}

/** Diagnostics upload statuses a notification may still move: 1 waiting, 2 uploading. */
const UPLOAD_IN_PROGRESS = [1, 2];

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
  // The charger works on the request it got last: a notification moves the point's newest request
  // while that one is in progress, and never an older request's row (docs/rules/equipment.md).
  const newestRequest = db
    .select({ id: diagnostics.id })
    .from(diagnostics)
    .where(and(eq(diagnostics.operatorId, identity.operatorId), eq(diagnostics.pointId, identity.pointId)))
    .orderBy(desc(diagnostics.id))
    .limit(1);
  return db.batch([
    event,
    db.update(points).set(latest).where(ofPoint(identity)),
    db
      .update(diagnostics)
      .set({ status: upload, updatedAt: new Date() })
      .where(and(eq(diagnostics.id, newestRequest), inArray(diagnostics.status, UPLOAD_IN_PROGRESS))),
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
