import { archiveListQuery, retentionInput } from "../../../domain/retention";
import { downloadArchive, listArchives } from "../../services/retention/archives";
import { getRetention, RETENTION_MENU, updateRetention } from "../../services/retention/settings";
import { api, describeAccess, idParam, route, userContext } from "../app";

/** Retention and the archives it wrote (docs/rules/settings.md "Retention"). */
const tag = "System service: retention";

export const routes = [
  route({ method: "get", path: "/system-service/retention", summary: "How long history stays before it is archived: { recordsMonths, framesDays }", tag, verb: getRetention }, (ctx) =>
    getRetention(ctx),
  ),
  route(
    {
      method: "put",
      path: "/system-service/retention",
      summary: "Set the retention: recordsMonths 1–120 (operation log, meter samples), framesDays 7–365 (raw OCPP frames)",
      tag,
      verb: updateRetention,
      body: retentionInput,
    },
    (ctx, { body }) => updateRetention(ctx, body),
  ),
  route(
    { method: "get", path: "/system-service/retention/archive", summary: "The operator's archives, newest month first (kind, month)", tag, verb: listArchives, query: archiveListQuery },
    (ctx, { query }) => listArchives(ctx, query),
  ),
];
api.openAPIRegistry.registerPath({
  method: "get",
  path: "/system-service/retention/archive/{id}/download",
  summary: "Download one archive: gzip-compressed NDJSON, one row a line",
  description: describeAccess(downloadArchive.access),
  "x-menu": [RETENTION_MENU],
  tags: [tag],
  security: [{ bearer: [] }],
  request: { params: idParam as never },
  responses: { 200: { description: "The archive's bytes (application/gzip)" }, 404: { description: "No such archive, or another operator's" } },
});
api.get("/system-service/retention/archive/:id/download", async (c) => {
  const ctx = await userContext(c, downloadArchive.access, false);
  const { id } = idParam.parse(c.req.param());
  const file = await downloadArchive(ctx, id);
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
});
