import { z } from "zod";
import {
  deleteInstalledCertificate,
  deleteInstalledInput,
  installInput,
  installRootCertificate,
  listRootCertificates,
  pointCertificates,
  refreshPointCertificates,
  removeRootCertificate,
  rootCertificateInput,
  uploadRootCertificate,
} from "../../services/certificates/root-certificates";
import { route } from "../app";
import { resource } from "../resource";

const tag = "Charger certificates";
const path = "/station-service/certificate";
const certificate = resource(tag, path);
const point = resource(tag, "/station-service/point");

export const routes = [
  certificate.get("", "The operator's root certificates for chargers (never the PEM)", listRootCertificates),
  certificate.create("Upload a root certificate (one X.509 PEM, at most 5500 characters), kept sealed", uploadRootCertificate, rootCertificateInput),

  route(
    {
      method: "delete",
      path: `${path}/{fingerprint}`,
      summary: "Remove a stored root certificate (chargers keep what they installed)",
      tag,
      verb: removeRootCertificate,
      params: z.object({ fingerprint: z.string() }),
    },
    (ctx, { params }) => removeRootCertificate(ctx, params.fingerprint),
  ),

  point.get("/{id}/certificates", "What the point last reported holding (GetInstalledCertificateIds) and the signing requests it sent", pointCertificates),
  point.put("/{id}/certificates", "Ask the point for the root certificates it holds (GetInstalledCertificateIds, both types)", refreshPointCertificates),
  point.post("/{id}/certificates/install", "InstallCertificate with a stored root certificate", installRootCertificate, installInput),
  point.post("/{id}/certificates/delete", "DeleteCertificate of one the point reported", deleteInstalledCertificate, deleteInstalledInput),
];
