import type { ColumnDef } from "@tanstack/react-table";
import { Copy, Pencil, PlugZap, Trash2 } from "lucide-react";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  useFetcher,
  useLoaderData,
  useNavigate,
  useRevalidator,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { RowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import {
  ListHeader,
  useActionOutcome,
} from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import { AssignDialog } from "./assign-dialog";
import { loadStrategies, strategiesAction } from "./strategies.server";

/**
 * Finance › Charging strategies: the list, paged and filtered by name on the server, with edit,
 * copy, assign and delete (docs/rules/pricing.md "Strategies"). A sub-operator's charge
 * configuration is the same list of its parent's strategies, with assign only, among its own
 * devices (pricing.md "Sub-operators").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadStrategies(args);
}

export function action(args: ActionFunctionArgs) {
  return strategiesAction(args);
}

type Strategy = Awaited<ReturnType<typeof loader>>["records"][number];

const BASE = "/financialManagement/chargeConfigurationNew";

export default function Strategies() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, currency, unitPrice } = useFormat();
  const { onPageChange } = useUrlPaging();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const fetcher = useFetcher<typeof action>();
  const [assigning, setAssigning] = useState<Strategy>();
  const closeAssign = useCallback(() => setAssigning(undefined), []);

  useActionOutcome<{ intent: string; id: number }>(fetcher, (data) => {
    if (data.intent === "copy") {
      toast.success(t("pricing.copied"));
      navigate(`${BASE}/edit/${data.id}`);
    } else toast.success(t("pricing.deleted"));
  });

  const electricity = (s: Strategy) => {
    // The price texts themselves, lowest to highest: formatted exactly, never through a float.
    const prices = s.electricity.slots.map((slot) => slot.price).sort((a, b) => Number(a) - Number(b));
    return s.electricity.slots.length === 1
      ? t("pricing.flat", {
          price: unitPrice(s.electricity.slots[0].price),
          currency: s.currency,
        })
      : t("pricing.timeOfUse", {
          count: s.electricity.slots.length,
          min: unitPrice(prices[0]),
          max: unitPrice(prices[prices.length - 1]),
          currency: s.currency,
        });
  };

  const columns: ColumnDef<Strategy>[] = [
    {
      accessorKey: "name",
      header: t("pricing.fields.name"),
      cell: ({ row }) => (
        <span className="font-medium">{row.original.name}</span>
      ),
    },
    {
      id: "electricity",
      header: t("pricing.fields.electricity"),
      meta: { priority: 2, width: 220 },
      cell: ({ row }) => electricity(row.original),
    },
    {
      id: "service",
      header: t("pricing.fields.service"),
      meta: { priority: 3 },
      cell: ({ row }) => (
        <Badge
          variant={row.original.service.unit === "NONE" ? "secondary" : "info"}
        >
          {t(`pricing.units.${row.original.service.unit}`)}
        </Badge>
      ),
    },
    {
      accessorKey: "pointCount",
      header: t("pricing.fields.points"),
      meta: { priority: 2, width: 120 },
      cell: ({ row }) => (
        <span className="tabular-nums">{row.original.pointCount}</span>
      ),
    },
    {
      accessorKey: "version",
      header: t("pricing.fields.version"),
      meta: { priority: 4, width: 100 },
      cell: ({ row }) => `v${row.original.version}`,
    },
    {
      accessorKey: "updatedAt",
      header: t("pricing.fields.updatedAt"),
      meta: { priority: 4 },
      cell: ({ row }) => dateTime(row.original.updatedAt),
    },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: page.manage ? 260 : 140 },
      cell: ({ row }) => (
        <RowActions
          actions={[
            page.manage && { label: t("common.edit"), icon: Pencil, to: `${BASE}/edit/${row.original.id}` },
            { label: t("pricing.assign.open"), icon: PlugZap, onSelect: () => setAssigning(row.original) },
            page.manage && {
              label: t("pricing.copyAction"),
              icon: Copy,
              onSelect: () => fetcher.submit({ intent: "copy", id: row.original.id }, { method: "post" }),
            },
            page.manage && {
              label: t("common.delete"),
              icon: Trash2,
              destructive: true,
              onSelect: async () => {
                if (row.original.pointCount > 0) {
                  toast.warning(t("pricing.errors.inUse", { count: row.original.pointCount }));
                  return;
                }
                if (await confirm({ message: t("pricing.confirmDelete", { name: row.original.name }), destructive: true, confirmLabel: t("common.delete") })) {
                  fetcher.submit({ intent: "delete", id: row.original.id }, { method: "post" });
                }
              },
            },
          ]}
        />
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      {page.manage ? (
        <ListHeader
          title={t("pricing.title")}
          addTo={`${BASE}/add`}
          addLabel={t("pricing.add")}
        />
      ) : (
        <PageHeader
          title={t("pricing.title")}
          description={t("pricing.subHint")}
        />
      )}
      <p className="text-sm text-muted-foreground">
        {t("pricing.listHint", { currency: currency.code })}
      </p>
      <DataTableToolbar>
        <FilterText name="name" label={t("pricing.fields.name")} />
      </DataTableToolbar>
      <DataTable
        columns={columns}
        page={page}
        onPageChange={onPageChange}
        getRowId={(s) => String(s.id)}
        emptyHint={t("pricing.empty")}
        label={t("pricing.title")}
      />
      {assigning && (
        <AssignDialog
          strategy={assigning}
          onClose={closeAssign}
          onSaved={() => {
            closeAssign();
            void revalidator.revalidate();
          }}
        />
      )}
    </div>
  );
}
