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
import { idParam, route } from "../app";

const tag = "Charger certificates";
const path = "/station-service/certificate";

export const routes = [
  route({ method: "get", path, summary: "The operator's root certificates for chargers (never the PEM)", tag, verb: listRootCertificates }, (ctx) => listRootCertificates(ctx)),

  route(
    { method: "post", path, summary: "Upload a root certificate (one X.509 PEM, at most 5500 characters), kept sealed", tag, verb: uploadRootCertificate, body: rootCertificateInput },
    (ctx, { body }) => uploadRootCertificate(ctx, body),
  ),

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

  route(
    {
      method: "get",
      path: "/station-service/point/{id}/certificates",
      summary: "What the point last reported holding (GetInstalledCertificateIds) and the signing requests it sent",
      tag,
      verb: pointCertificates,
      params: idParam,
    },
    (ctx, { params }) => pointCertificates(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: "/station-service/point/{id}/certificates",
      summary: "Ask the point for the root certificates it holds (GetInstalledCertificateIds, both types)",
      tag,
      verb: refreshPointCertificates,
      params: idParam,
    },
    (ctx, { params }) => refreshPointCertificates(ctx, params.id),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/{id}/certificates/install",
      summary: "InstallCertificate with a stored root certificate",
      tag,
      verb: installRootCertificate,
      params: idParam,
      body: installInput,
    },
    (ctx, { params, body }) => installRootCertificate(ctx, params.id, body),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/{id}/certificates/delete",
      summary: "DeleteCertificate of one the point reported",
      tag,
      verb: deleteInstalledCertificate,
      params: idParam,
      body: deleteInstalledInput,
    },
    (ctx, { params, body }) => deleteInstalledCertificate(ctx, params.id, body),
  ),
];
