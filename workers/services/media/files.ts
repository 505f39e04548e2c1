import { count, desc, eq } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { storedFiles } from "../../../db/schema";
import { Invalid, NotFound } from "../../../domain/errors";
import { fileListQuery } from "../../../domain/schemas/maintenance";
import { cleanFileName, detectFile, MAX_FILE_BYTES } from "../../../domain/stored-files";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { FRAMING_BYTES, type Upload } from "../files/images";
import { verb } from "../verb";

/**
 * File management (docs/rules/maintenance.md "File management"): an operator's own files in R2
 * under `operators/<id>/files/`, never public: listed, uploaded (checked by content, 10 MB),
 * downloaded and deleted only by the operator's accounts with the screen's menu.
 */
export const FILE_MENU = "users.fileManagement";

type Row = typeof storedFiles.$inferSelect;
const present = (r: Row) => ({
  id: r.id,
  name: r.name,
  contentType: r.contentType,
  bytes: r.bytes,
  uploadedBy: r.uploadedBy,
  createdAt: r.createdAt.toISOString(),
  downloadUrl: `/system-service/file/${r.id}/download`,
});

const refused = (key: string, params: Record<string, unknown> = {}) => new Invalid(`maintenance.validation.${key}`, params, { file: `maintenance.validation.${key}` });

export const listFiles = verb({ menu: FILE_MENU }, async (ctx, raw: unknown) => {
  const q = fileListQuery.parse(raw);
  const where = owned(ctx, storedFiles, containingIf(storedFiles.name, q.name));
  return pageOf(
    q,
    async ({ limit, offset }) => (await ctx.db.select().from(storedFiles).where(where).orderBy(desc(storedFiles.createdAt), desc(storedFiles.id)).limit(limit).offset(offset)).map(present),
    async () => (await ctx.db.select({ total: count() }).from(storedFiles).where(where))[0].total,
  );
});

export const uploadFile = verb({ menu: FILE_MENU, mutates: true }, async (ctx, upload: Upload) => {
  if (upload.declaredBytes !== undefined && upload.declaredBytes - FRAMING_BYTES > MAX_FILE_BYTES) throw refused("fileBytes", { max: "10 MB" });
  const file = await upload.readFile();
  if (!(file instanceof File) || file.size === 0) throw refused("fileRequired");
  if (file.size > MAX_FILE_BYTES) throw refused("fileBytes", { max: "10 MB" });
  const name = cleanFileName(file.name);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = name ? detectFile(name, bytes) : undefined;
  if (!kind) throw refused("fileType");
  const key = `operators/${ctx.operator.id}/files/${crypto.randomUUID()}`;
  await ctx.env.FILES.put(key, bytes, { httpMetadata: { contentType: kind.contentType }, customMetadata: { name, uploadedBy: ctx.actor.username } });
  const values = { fileKey: key, name, contentType: kind.contentType, bytes: bytes.length, uploadedBy: ctx.actor.username };
  const [inserted] = await ctx.db.batch([
    ctx.db.insert(storedFiles).values(ownedRow(ctx, values)).returning(),
    auditRow(ctx, { table: "stored_files", module: "fileManagement", type: "CREATE", newData: values }),
  ]);
  return present(inserted[0]);
});

async function rowOf(ctx: Parameters<typeof listFiles>[0], id: number) {
  const [row] = await ctx.db.select().from(storedFiles).where(owned(ctx, storedFiles, eq(storedFiles.id, id))).limit(1);
  if (!row) throw new NotFound("maintenance.errors.fileNotFound");
  return row;
}

/** The file's bytes for a download; another operator's id, or a file gone from R2, is 404. */
export const downloadFile = verb({ menu: FILE_MENU }, async (ctx, id: number) => {
  const row = await rowOf(ctx, id);
  const object = await ctx.env.FILES.get(row.fileKey);
  if (!object) throw new NotFound("maintenance.errors.fileNotFound");
  return { name: row.name, contentType: row.contentType, body: object.body };
});

export const deleteFile = verb({ menu: FILE_MENU, mutates: true }, async (ctx, id: number) => {
  const row = await rowOf(ctx, id);
  await ctx.db.batch([
    ctx.db.delete(storedFiles).where(owned(ctx, storedFiles, eq(storedFiles.id, id))),
    auditRow(ctx, { table: "stored_files", module: "fileManagement", type: "DELETE", oldData: { id, name: row.name, key: row.fileKey } }),
  ]);
  await ctx.env.FILES.delete(row.fileKey);
  return { id };
});
