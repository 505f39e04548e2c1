import { archiveListQuery, retentionInput } from "../../../domain/retention";
import { downloadArchive, listArchives } from "../../services/retention/archives";
import { getRetention, RETENTION_MENU, updateRetention } from "../../services/retention/settings";
import { api, describeAccess, idParam, userContext } from "../app";
import { resource } from "../resource";

/** Retention and the archives it wrote (docs/rules/settings.md "Retention"). */
const tag = "System service: retention";
const retention = resource(tag, "/system-service/retention");

export const routes = [
  retention.get("", "How long history stays before it is archived: { recordsMonths, framesDays }", getRetention),
  retention.put("", "Set the retention: recordsMonths 1–120 (operation log, meter samples), framesDays 7–365 (raw OCPP frames)", updateRetention, retentionInput),
  retention.get("/archive", "The operator's archives, newest month first (kind, month)", listArchives, archiveListQuery),
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
