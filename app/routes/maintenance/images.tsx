import type { ColumnDef } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, CheckCircle2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useLocation, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { BANNER_TYPES } from "../../../domain/schemas/maintenance";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { bannerAction, loadBanners } from "./media.server";
import { UploadButton } from "./upload-button";

/**
 * Images (banners) of the driver app: upload a checked JPG/PNG, approve, enable or disable, order,
 * delete (docs/rules/maintenance.md "Banners and images"). Operators and sub-operators keep their own.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadBanners(args);
}

export function action(args: ActionFunctionArgs) {
  return bannerAction(args);
}

type Banner = Awaited<ReturnType<typeof loader>>["records"][number];

export default function ImagesScreen() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { toggle, remove } = useCommonRowActions();
  const title = t(useLocation().pathname.startsWith("/suboperators/") ? "menu.sub.system.imageManagement" : "menu.users.imageManagement");
  const [type, setType] = useState<(typeof BANNER_TYPES)[number]>("POINT");
  const fetcher = useFetcher<typeof action>();
  const upload = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("maintenance.images.done")));
  useActionOutcome(upload, () => toast.success(t("maintenance.images.uploaded")));
  const post = (values: Record<string, string | number>) => fetcher.submit(values, { method: "post" });
  const ids = page.records.map((r) => r.id);
  const move = (index: number, by: number) => {
    const next = [...ids];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    post({ intent: "order", ids: next.join(",") });
  };
  const columns: ColumnDef<Banner>[] = [
    {
      id: "preview",
      header: t("maintenance.images.preview"),
      meta: { width: 110 },
      cell: ({ row }) => <img src={row.original.url} alt={t(`maintenance.images.types.${row.original.type}`)} width={64} height={64} className="size-16 rounded border object-contain" />,
    },
    { accessorKey: "type", header: t("maintenance.images.type"), cell: ({ row }) => t(`maintenance.images.types.${row.original.type}`) },
    {
      accessorKey: "auditStatus",
      header: t("maintenance.images.auditStatus"),
      cell: ({ row }) => <Badge variant={row.original.auditStatus === "AUDITED" ? "success" : "warning"}>{t(`maintenance.images.audits.${row.original.auditStatus}`)}</Badge>,
    },
    {
      accessorKey: "enabled",
      header: t("maintenance.images.enabled"),
      meta: { width: 110 },
      cell: ({ row }) => <Badge variant={row.original.enabled ? "success" : "muted"}>{t(row.original.enabled ? "maintenance.images.yes" : "maintenance.images.no")}</Badge>,
    },
    { id: "size", header: t("maintenance.images.size"), meta: { priority: 3 }, cell: ({ row }) => `${row.original.width} × ${row.original.height}` },
    { accessorKey: "uploadedBy", header: t("maintenance.images.uploader"), meta: { priority: 2 }, cell: ({ row }) => `${row.original.uploadedBy} · ${dateTime(row.original.createdAt)}` },
    // Approving or switching first: the list's most used action (docs/rules/console.md "Row actions").
    actionsColumn<Banner>(t("common.actions"), (b) => {
      const index = ids.indexOf(b.id);
      return [
        b.auditStatus === "UNAUDITED"
          ? { label: t("maintenance.images.approve"), icon: CheckCircle2, onSelect: () => post({ intent: "audit", id: b.id }), confirm: { message: t("maintenance.images.approveConfirm") } }
          : toggle(b.enabled, () => post({ intent: "enable", id: b.id, enabled: String(!b.enabled) }), {
              enable: t("maintenance.images.enableConfirm"),
              disable: t("maintenance.images.disableConfirm"),
              enableLabel: t("maintenance.images.enable"),
              disableLabel: t("maintenance.images.disable"),
            }),
        remove(() => post({ intent: "delete", id: b.id })),
        { label: t("maintenance.images.up"), icon: ArrowUp, disabled: index <= 0, onSelect: () => move(index, -1) },
        { label: t("maintenance.images.down"), icon: ArrowDown, disabled: index < 0 || index >= ids.length - 1, onSelect: () => move(index, 1) },
      ];
    }),
  ];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={title}
        description={t("maintenance.images.description")}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <NativeSelect aria-label={t("maintenance.images.type")} value={type} onChange={(e) => setType(e.target.value as typeof type)}>
              {BANNER_TYPES.map((x) => (
                <option key={x} value={x}>
                  {t(`maintenance.images.types.${x}`)}
                </option>
              ))}
            </NativeSelect>
            <UploadButton
              label={t("maintenance.images.upload")}
              accept="image/png,image/jpeg"
              busy={upload.state !== "idle"}
              onFile={(file) => {
                const data = new FormData();
                data.append("type", type);
                data.append("file", file);
                upload.submit(data, { method: "post", encType: "multipart/form-data" });
              }}
            />
          </div>
        }
      />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("maintenance.images.empty")} label={title} />
    </div>
  );
}
