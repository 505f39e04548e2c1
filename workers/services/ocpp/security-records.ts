import { desc, eq, inArray } from "drizzle-orm";
import { alarms, pointEvents } from "../../../db/schema";
import { securityAlarmLevel } from "../../../domain/ocpp/security-events";
import { owned, ownedRow } from "../../../tenants/scope";
import type { SystemCtx } from "../context";
import { openWorkOrdersForAlarms } from "../maintenance/work-orders";
import { verb } from "../verb";
import type { RaisedAlarm } from "./charger-changes";

/**
 * What the security messages of a charger leave in D1 (docs/rules/ocpp.md "Security extension"):
 * every security event as a point event, a critical one also as an alarm on the point
 * (connector 0), and the certificate signing requests it sends, for the operator to sign.
 */
const system = { actors: ["system"] } as const;

export interface SecurityEventFacts {
  type: string;
  timestamp: string;
  techInfo?: string;
  version: "1.6" | "2.0.1";
}

/**
 * A security event (1.6 security extension §4.5, 2.0.1 A04). A critical one raises an alarm of
 * its type unless one is still open, as a fault code does (docs/rules/monitoring.md "Alarms"), and
 * may open a work order (docs/rules/maintenance.md "Automatic work orders"). Answers the alarm
 * raised, for the live view.
 */
export const recordSecurityEvent = verb(system, async (ctx: SystemCtx, pointId: number, event: SecurityEventFacts): Promise<RaisedAlarm | null> => {
  const critical = securityAlarmLevel(event.type);
  const kept = ctx.db.insert(pointEvents).values(
    ownedRow(ctx, {
      pointId,
      kind: "SecurityEvent" as const,
      status: event.type,
      detail: { timestamp: event.timestamp, critical: critical !== null, version: event.version, ...(event.techInfo !== undefined && { techInfo: event.techInfo }) },
    }),
  );
  if (critical === null) {
    await kept;
    return null;
  }
  const [open] = await ctx.db
    .select({ id: alarms.id })
    .from(alarms)
    .where(owned(ctx, alarms, eq(alarms.pointId, pointId), eq(alarms.connectorNo, 0), eq(alarms.type, event.type), eq(alarms.status, "Undisposed")))
    .limit(1);
  if (open) {
    await kept;
    return null;
  }
  const at = Date.parse(event.timestamp);
  await ctx.db.batch([
    kept,
    ctx.db.insert(alarms).values(ownedRow(ctx, { pointId, connectorNo: 0, level: critical, type: event.type, message: event.techInfo ?? null, occurredAt: new Date(at) })),
  ]);
  const raised: RaisedAlarm = { connectorId: 0, level: critical, type: event.type, at };
  await openWorkOrdersForAlarms(ctx, pointId, [raised]);
  return raised;
});

/**
 * A charger's certificate signing request (1.6 security extension §4.2 SignCertificate): kept for
 * the operator, who signs it with the operator's own certificate authority and sends the chain
 * back with CertificateSigned (docs/rules/ocpp.md "Security extension").
 */
export const recordCertificateRequest = verb(system, async (ctx: SystemCtx, pointId: number, csr: string) => {
  await ctx.db.insert(pointEvents).values(ownedRow(ctx, { pointId, kind: "CertificateRequest" as const, status: "Received", detail: { csr } }));
});

/** The point's last reply to GetInstalledCertificateIds, by certificate type, and its newest signing requests. */
export async function certificateEventsOf(ctx: Pick<SystemCtx, "db" | "operator">, pointId: number) {
  const rows = await ctx.db
    .select({ kind: pointEvents.kind, status: pointEvents.status, detail: pointEvents.detail, createdAt: pointEvents.createdAt })
    .from(pointEvents)
    .where(owned(ctx, pointEvents, eq(pointEvents.pointId, pointId), inArray(pointEvents.kind, ["InstalledCertificates", "CertificateRequest"])))
    .orderBy(desc(pointEvents.id))
    .limit(50);
  return rows;
}
