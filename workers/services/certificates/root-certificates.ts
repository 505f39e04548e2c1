import { z } from "zod";
import { pointEvents } from "../../../db/schema";
import { Invalid, NotFound } from "../../../domain/errors";
import { CertificateHashData, CertificateUse, type OcppResponse } from "../../../domain/ocpp";
import { certificatePem, readCertificatePem, rootHashData } from "../../../domain/ocpp/certificates";
import { REMOTE_CONTROL_MENUS } from "../../../tenants/permissions";
import { ownedRow } from "../../../tenants/scope";
import { openBytes, sealBytes, sealContext } from "../../auth/sealed";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { certificateEventsOf } from "../ocpp/security-records";
import { findPoint } from "../points/points";
import { command } from "../remote/remote-control";
import { verb } from "../verb";

/**
 * The root certificates an operator installs on chargers (1.6 security extension §4.3 and 2.0.1
 * M03–M05; docs/rules/ocpp.md "Security extension"): uploaded as PEM, kept sealed in R2 beside the
 * operator's other certificates (docs/decisions/0036-secrets-sealed-with-aes-gcm.md), sent with
 * InstallCertificate, and matched against what each charger reports holding.
 */

export const rootCertificateInput = z.object({
  certificateType: CertificateUse,
  /** A label for the console; the certificate's common name when left out. */
  name: z.string().trim().min(1).max(100).optional(),
  pem: certificatePem,
});

export const installInput = z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/, { error: "validation.certificateFingerprint" }) });
export const deleteInstalledInput = z.object({ certificateHashData: CertificateHashData });

const PREFIX = (operatorId: number) => `secure/operators/${operatorId}/root-certificates/`;
const keyOf = (operatorId: number, fingerprint: string) => `${PREFIX(operatorId)}${fingerprint}`;
const sealedAs = (operatorId: number, fingerprint: string) => sealContext(operatorId, `rootCertificate.${fingerprint}`);

/** What the console and the API show of a stored root; the PEM itself is only ever sent to chargers. */
export interface RootCertificate {
  fingerprint: string;
  name: string;
  certificateType: CertificateUse;
  serialNumber: string;
  notAfter: string | null;
  issuerNameHash: string | null;
  issuerKeyHash: string | null;
  uploadedAt: string;
}

/** R2 metadata holds strings only: an absent value is kept as "". */
const orNull = z.string().transform((value) => value || null);
const metadataOf = z.object({
  name: z.string(),
  certificateType: CertificateUse,
  serialNumber: z.string(),
  notAfter: orNull,
  issuerNameHash: orNull,
  issuerKeyHash: orNull,
  uploadedAt: z.string(),
});

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** GET /station-service/certificate: the operator's roots, newest first. */
export const listRootCertificates = verb({ menu: REMOTE_CONTROL_MENUS }, async (ctx): Promise<RootCertificate[]> => {
  const listed = await ctx.env.FILES.list({ prefix: PREFIX(ctx.operator.id), include: ["customMetadata"] });
  return listed.objects
    .flatMap((object) => {
      const meta = metadataOf.safeParse(object.customMetadata ?? {});
      return meta.success ? [{ fingerprint: object.key.slice(PREFIX(ctx.operator.id).length), ...meta.data }] : [];
    })
    .sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt));
});

/**
 * POST /station-service/certificate: one PEM certificate of at most 5500 characters (what
 * InstallCertificate carries), named by the SHA-256 of its DER bytes; the same certificate again
 * replaces its label and type.
 */
export const uploadRootCertificate = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, raw: unknown): Promise<RootCertificate> => {
  const input = rootCertificateInput.parse(raw);
  const certificate = readCertificatePem(input.pem);
  if (!certificate) throw new Invalid("validation.certificatePem", {}, { pem: "validation.certificatePem" });
  const fingerprint = hex(await crypto.subtle.digest("SHA-256", certificate.der));
  const hashData = await rootHashData(certificate);
  const stored: RootCertificate = {
    fingerprint,
    name: input.name ?? certificate.commonName ?? certificate.serialNumber,
    certificateType: input.certificateType,
    serialNumber: certificate.serialNumber,
    notAfter: certificate.notAfter,
    issuerNameHash: hashData?.issuerNameHash ?? null,
    issuerKeyHash: hashData?.issuerKeyHash ?? null,
    uploadedAt: new Date(ctx.now()).toISOString(),
  };
  const { fingerprint: _key, ...metadata } = stored;
  await ctx.env.FILES.put(keyOf(ctx.operator.id, fingerprint), await sealBytes(ctx.env, sealedAs(ctx.operator.id, fingerprint), new TextEncoder().encode(input.pem.trim())), {
    httpMetadata: { contentType: "application/octet-stream" },
    customMetadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, v ?? ""])),
  });
  await auditRow(ctx, { table: "root_certificates", module: "certificates", type: "CREATE", newData: stored });
  return stored;
});

/** DELETE /station-service/certificate/{fingerprint}: the chargers keep what they installed. */
export const removeRootCertificate = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, fingerprint: string) => {
  const key = keyOf(ctx.operator.id, installInput.parse({ fingerprint }).fingerprint);
  if (!(await ctx.env.FILES.head(key))) throw new NotFound("errors.certificateNotFound");
  await ctx.env.FILES.delete(key);
  await auditRow(ctx, { table: "root_certificates", module: "certificates", type: "DELETE", oldData: { fingerprint } });
  return { fingerprint, removed: true };
});

/** One of the operator's own points: a sub-operator's roots are not its parent's, so only the owner installs on a point. */
async function ownPoint(ctx: UserCtx, pointId: number) {
  const { point } = await findPoint(ctx, { id: pointId });
  if (point.operatorId !== ctx.operator.id) throw new NotFound("errors.pointNotFound");
  return point;
}

/** POST /station-service/point/{id}/certificates/install: InstallCertificate with a stored root (1.6 §4.3, 2.0.1 M05). */
export const installRootCertificate = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number, raw: unknown) => {
  const { fingerprint } = installInput.parse(raw);
  const point = await ownPoint(ctx, pointId);
  const object = await ctx.env.FILES.get(keyOf(ctx.operator.id, fingerprint));
  if (!object) throw new NotFound("errors.certificateNotFound");
  const certificateType = CertificateUse.parse(object.customMetadata?.certificateType);
  const pem = new TextDecoder().decode(await openBytes(ctx.env, sealedAs(ctx.operator.id, fingerprint), new Uint8Array(await object.arrayBuffer())));
  return command(ctx, { id: point.id }, "InstallCertificate", { certificateType, certificate: pem });
});

type Installed = { certificateType: CertificateUse; hashAlgorithm: string; issuerNameHash: string; issuerKeyHash: string; serialNumber: string };

/** What a point reported holding, each certificate named by the operator's stored root it matches (null when none). */
function named(installed: readonly Installed[], roots: readonly RootCertificate[]) {
  const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();
  return installed.map((c) => {
    const root = roots.find((r) => c.hashAlgorithm === "SHA256" && same(r.issuerNameHash, c.issuerNameHash) && same(r.issuerKeyHash, c.issuerKeyHash) && same(r.serialNumber, c.serialNumber));
    return { ...c, fingerprint: root?.fingerprint ?? null, name: root?.name ?? null };
  });
}

const installedEvent = z.object({ certificates: z.array(z.object({ certificateType: CertificateUse, hashAlgorithm: z.string(), issuerNameHash: z.string(), issuerKeyHash: z.string(), serialNumber: z.string() })) });

/**
 * GET /station-service/point/{id}/certificates: the certificates the point said it holds when last
 * asked (and when), and the signing requests it sent (1.6 §4.2), newest first; no charger is asked.
 */
export const pointCertificates = verb({ menu: REMOTE_CONTROL_MENUS }, async (ctx, pointId: number) => {
  const point = await ownPoint(ctx, pointId);
  const [events, roots] = await Promise.all([certificateEventsOf(ctx, point.id), listRootCertificates(ctx)]);
  const last = events.find((e) => e.kind === "InstalledCertificates");
  const reported = last ? installedEvent.safeParse(last.detail) : null;
  return {
    installed: reported?.success ? named(reported.data.certificates, roots) : [],
    askedAt: last?.createdAt.toISOString() ?? null,
    signingRequests: events
      .filter((e) => e.kind === "CertificateRequest")
      .slice(0, 5)
      .map((e) => ({ csr: typeof e.detail.csr === "string" ? e.detail.csr : "", receivedAt: e.createdAt.toISOString() })),
  };
});

/**
 * PUT /station-service/point/{id}/certificates: asks the charger for both kinds of root it holds
 * (GetInstalledCertificateIds; NotFound is an empty list), keeps the answer for the point page and
 * answers it as `pointCertificates` does.
 */
export const refreshPointCertificates = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number) => {
  const point = await ownPoint(ctx, pointId);
  const certificates: Installed[] = [];
  for (const certificateType of CertificateUse.options) {
    const reply: OcppResponse<"GetInstalledCertificateIds"> = await command(ctx, { id: point.id }, "GetInstalledCertificateIds", { certificateType });
    for (const hash of reply.certificateHashData ?? []) certificates.push({ certificateType, ...hash });
  }
  await ctx.db.insert(pointEvents).values(ownedRow(ctx, { pointId: point.id, kind: "InstalledCertificates" as const, status: null, detail: { certificates } }));
  return pointCertificates(ctx, pointId);
});

/** POST /station-service/point/{id}/certificates/delete: DeleteCertificate of one the point reported (1.6 §4.3, 2.0.1 M04). */
export const deleteInstalledCertificate = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number, raw: unknown) => {
  const { certificateHashData } = deleteInstalledInput.parse(raw);
  const point = await ownPoint(ctx, pointId);
  return command(ctx, { id: point.id }, "DeleteCertificate", { certificateHashData });
});
