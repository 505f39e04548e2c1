import { asc, count, eq, sql } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { banners } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { bannerListQuery, bannerOrderInput, bannerStatusInput, bannerUploadQuery } from "../../../domain/schemas/maintenance";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { readImage, type Upload } from "../files/images";
import { verb } from "../verb";
import { ownedCount } from "../owned-count";

/**
 * Banners and images for the driver app (docs/rules/maintenance.md "Banners and images"): a
 * JPG/PNG checked by content with the limits of other images (1 MB, 160×160 px), stored in R2
 * under the operator's public prefix, UNAUDITED until approved; only an approved banner can be
 * enabled; the operator orders them. Operators and sub-operators each keep their own.
 */
export const BANNER_MENUS = ["users.imageManagement", "sub.system.imageManagement"];

type Row = typeof banners.$inferSelect;

export const bannerUrl = (key: string) => `/user-service/file/show?key=${encodeURIComponent(key)}`;

const present = (r: Row) => ({
  id: r.id,
  type: r.type,
  url: bannerUrl(r.fileKey),
  key: r.fileKey,
  width: r.width,
  height: r.height,
  bytes: r.bytes,
  auditStatus: r.auditStatus,
  enabled: r.enabled,
  sort: r.sort,
  uploadedBy: r.uploadedBy,
  auditedBy: r.auditedBy,
  createdAt: r.createdAt.toISOString(),
});

/** Banners in the operator's order (then oldest first), by type and audit status. */
export const listBanners = verb({ menu: BANNER_MENUS }, async (ctx, raw: unknown) => {
  const q = bannerListQuery.parse(raw);
  const where = owned(ctx, banners, q.type ? eq(banners.type, q.type) : undefined, q.auditStatus ? eq(banners.auditStatus, q.auditStatus) : undefined);
  return pageOf(
    q,
    async ({ limit, offset }) => (await ctx.db.select().from(banners).where(where).orderBy(asc(banners.sort), asc(banners.id)).limit(limit).offset(offset)).map(present),
    async () => (await ctx.db.select({ total: count() }).from(banners).where(where))[0].total,
  );
});

async function rowOf(ctx: Parameters<typeof listBanners>[0], id: number) {
  const [row] = await ctx.db.select().from(banners).where(owned(ctx, banners, eq(banners.id, id))).limit(1);
  if (!row) throw new NotFound("maintenance.errors.bannerNotFound");
  return row;
}

/** Uploads a banner: checked by content, stored, then its row and log row in one batch; it goes last in the order. */
export const uploadBanner = verb({ menu: BANNER_MENUS, mutates: true }, async (ctx, rawQuery: unknown, upload: Upload) => {
  const { type } = bannerUploadQuery.parse(rawQuery);
  const { bytes, checked } = await readImage("image", upload);
  const key = `operators/${ctx.operator.id}/public/banners/${crypto.randomUUID()}.${checked.extension}`;
  await ctx.env.FILES.put(key, bytes, { httpMetadata: { contentType: checked.contentType }, customMetadata: { uploadedBy: ctx.actor.username } });
  const [{ next }] = await ctx.db.select({ next: sql<number>`coalesce(max(${banners.sort}) + 1, 0)` }).from(banners).where(owned(ctx, banners));
  const values = { type, fileKey: key, width: checked.width, height: checked.height, bytes: bytes.length, sort: next, uploadedBy: ctx.actor.username };
  const [inserted] = await ctx.db.batch([
    ctx.db.insert(banners).values(ownedRow(ctx, values)).returning(),
    auditRow(ctx, { table: "banners", module: "imageManagement", type: "CREATE", newData: values }),
  ]);
  return present(inserted[0]);
});

/** Approval: UNAUDITED → AUDITED once (409 after), conditional on the status. */
export const auditBanner = verb({ menu: BANNER_MENUS, mutates: true }, async (ctx, id: number) => {
  const before = await rowOf(ctx, id);
  if (before.auditStatus !== "UNAUDITED") throw new Conflict("maintenance.errors.bannerAudited");
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(banners)
      .set({ auditStatus: "AUDITED", auditedBy: ctx.actor.username })
      .where(owned(ctx, banners, eq(banners.id, id), eq(banners.auditStatus, "UNAUDITED")))
      .returning(),
    auditRow(ctx, { table: "banners", module: "imageManagement", type: "UPDATE", oldData: { id, auditStatus: "UNAUDITED" }, newData: { id, auditStatus: "AUDITED" } }),
  ]);
  if (!updated[0]) throw new Conflict("maintenance.errors.bannerAudited");
  return present(updated[0]);
});

/** Enables or disables a banner; only an approved one may be enabled (409). */
export const setBannerEnabled = verb({ menu: BANNER_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { enabled } = bannerStatusInput.parse(raw);
  const before = await rowOf(ctx, id);
  if (enabled && before.auditStatus !== "AUDITED") throw new Conflict("maintenance.errors.bannerNotAudited");
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(banners)
      .set({ enabled })
      .where(owned(ctx, banners, eq(banners.id, id), enabled ? eq(banners.auditStatus, "AUDITED") : undefined))
      .returning(),
    auditRow(ctx, { table: "banners", module: "imageManagement", type: "UPDATE", oldData: { id, enabled: before.enabled }, newData: { id, enabled } }),
  ]);
  if (!updated[0]) throw new Conflict("maintenance.errors.bannerNotAudited");
  return present(updated[0]);
});

/** Puts the given banners first, in this order; another operator's id is 404. */
export const orderBanners = verb({ menu: BANNER_MENUS, mutates: true }, async (ctx, raw: unknown) => {
  const { ids } = bannerOrderInput.parse(raw);
  const unique = [...new Set(ids)];
  if ((await ownedCount(ctx, banners, unique)) !== unique.length) throw new NotFound("maintenance.errors.bannerNotFound");
  await ctx.db.batch([
    auditRow(ctx, { table: "banners", module: "imageManagement", type: "UPDATE", newData: { order: unique } }),
    ...unique.map((id, sort) => ctx.db.update(banners).set({ sort }).where(owned(ctx, banners, eq(banners.id, id)))),
  ]);
  return { ids: unique };
});

/** Deletes a banner's row with its log row, then its image. */
export const deleteBanner = verb({ menu: BANNER_MENUS, mutates: true }, async (ctx, id: number) => {
  const before = await rowOf(ctx, id);
  await ctx.db.batch([
    ctx.db.delete(banners).where(owned(ctx, banners, eq(banners.id, id))),
    auditRow(ctx, { table: "banners", module: "imageManagement", type: "DELETE", oldData: { id, key: before.fileKey, type: before.type } }),
  ]);
  await ctx.env.FILES.delete(before.fileKey);
  return { id };
});
