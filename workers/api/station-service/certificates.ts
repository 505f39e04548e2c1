import { z } from "zod";
import * as rootCertificates from "../../services/certificates/root-certificates";
import { resource } from "../resource";

const tag = "Charger certificates";
const path = "/station-service/certificate";
const certificate = resource(tag, path);
const point = resource(tag, "/station-service/point");
/** A stored root certificate is named by its fingerprint. */
const stored = resource(tag, path, z.object({ fingerprint: z.string() }));

export const routes = [
  certificate.get("", "The operator's root certificates for chargers (never the PEM)", rootCertificates.listRootCertificates),
  certificate.create("Upload a root certificate (one X.509 PEM, at most 5500 characters), kept sealed", rootCertificates.uploadRootCertificate, rootCertificates.rootCertificateInput),
  stored.remove("Remove a stored root certificate (chargers keep what they installed)", rootCertificates.removeRootCertificate),
  point.get("/{id}/certificates", "What the point last reported holding (GetInstalledCertificateIds) and the signing requests it sent", rootCertificates.pointCertificates),
  point.put("/{id}/certificates", "Ask the point for the root certificates it holds (GetInstalledCertificateIds, both types)", rootCertificates.refreshPointCertificates),
  point.post("/{id}/certificates/install", "InstallCertificate with a stored root certificate", rootCertificates.installRootCertificate, rootCertificates.installInput),
  point.post("/{id}/certificates/delete", "DeleteCertificate of one the point reported", rootCertificates.deleteInstalledCertificate, rootCertificates.deleteInstalledInput),
];
