import type { ColumnDef } from "@tanstack/react-table";
import { Download, Lock, Pencil, RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { actionsColumn } from "~/components/data-table/row-actions";
import { useFormat } from "~/components/format";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toast";
import { useApi, useBusyCall, type ApiBody, type ApiResult } from "~/lib/api";
import { ChangeValueDialog } from "./change-value-dialog";
import { OfflineNote } from "./configuration-tab";
import { TabTable } from "./tab-table";
import { useApiPage } from "./use-api-page";

/** The device model as GET /station-service/point/{id}/deviceModel answers it (OCPP 2.0.1 Part 2 B07): a page of variables, the EVSEs' connectors (G01). */
type ModelPage = ApiResult<"get", "/station-service/point/{id}/deviceModel">;
type DeviceVariable = ModelPage["records"][number];
type EvseConnector = NonNullable<ModelPage["evses"]>[number];

/** What a read or a set sends per variable (B05, B06). */
type Target = ApiBody<"post", "/station-service/point/{id}/variables/get">["variables"][number];

const actualOf = (v: DeviceVariable) => v.attributes.find((a) => a.type === "Actual") ?? v.attributes[0];
const targetOf = (v: DeviceVariable): Target => ({ component: v.component, variable: v.variable, attributeType: actualOf(v)?.type ?? "Actual" });
const rowId = (v: DeviceVariable) =>
  [v.component.name, v.component.instance, v.component.evse?.id, v.component.evse?.connectorId, v.variable.name, v.variable.instance].join("/");

/**
 * The configuration tab of a point that speaks OCPP 2.0.1: its device model as the charger last
 * reported it (B07), paged and searched on the server; "Refresh from the charger" asks for a new
 * report (GetBaseReport), "Read" reads a variable live (B06 GetVariables) and "Set" sets a writable
 * one (B05 SetVariables), showing the charger's status (docs/rules/equipment.md "Point pages").
 */
export function DeviceModelTab({ pointId, online }: { pointId: number; online: boolean }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const api = useApi();
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [requesting, whileRequesting] = useBusyCall();
  const [reading, setReading] = useState<string>();
  const [editing, setEditing] = useState<{ variable: DeviceVariable; value: string }>();
  const [saving, whileSaving] = useBusyCall();
  const list = useApiPage("/station-service/point/{id}/deviceModel", { params: { id: pointId }, query: { search } });
  const { page, reload, firstPage } = list;
  const reportedAt = page?.reportedAt ?? null;
  const evses = page?.evses ?? [];

  // The search goes to the server once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (typed.trim() === search) return;
      setSearch(typed.trim());
      firstPage();
    }, 300);
    return () => clearTimeout(timer);
  }, [typed, search, firstPage]);

  const label = (v: Target) => `${v.component.name}${v.component.instance ? `[${v.component.instance}]` : ""}.${v.variable.name}${v.variable.instance ? `[${v.variable.instance}]` : ""}`;
  const statusText = (status: string) => t(`points.deviceModel.statuses.${status}`, { defaultValue: status });

  const refresh = () =>
    whileRequesting(async () => {
      await api.post("/station-service/point/{id}/deviceModel/report", { params: { id: pointId }, body: { reportBase: "FullInventory" } });
      toast.success(t("points.deviceModel.requested"));
      // The report follows in NotifyReport messages; the table shows it once it has landed.
      setTimeout(reload, 3000);
    });

  const read = async (v: DeviceVariable) => {
    setReading(rowId(v));
    try {
      const { results } = await api.post("/station-service/point/{id}/variables/get", { params: { id: pointId }, body: { variables: [targetOf(v)] } });
      const result = results[0];
      if (result?.attributeStatus === "Accepted") toast.success(t("points.deviceModel.readValue", { variable: label(v), value: result.attributeValue ?? "" }));
      else toast.warning(t("points.deviceModel.result", { variable: label(v), status: statusText(result?.attributeStatus ?? "Rejected") }));
      reload();
    } catch {
      // Shown by the API client.
    } finally {
      setReading(undefined);
    }
  };

  const save = async () => {
    if (!editing) return;
    await whileSaving(async () => {
      const { results } = await api.post("/station-service/point/{id}/variables/set", {
        params: { id: pointId },
        body: { variables: [{ ...targetOf(editing.variable), value: editing.value }] },
      });
      const status = results[0]?.attributeStatus ?? "Rejected";
      const message = t("points.deviceModel.result", { variable: label(editing.variable), status: statusText(status) });
      if (status === "Accepted") toast.success(message);
      else toast.warning(message);
      if (status === "Accepted" || status === "RebootRequired") setEditing(undefined);
      reload();
    });
  };

  const columns: ColumnDef<DeviceVariable>[] = [
    {
      id: "component",
      header: t("points.deviceModel.component"),
      cell: ({ row: { original: v } }) => (
        <span className="flex flex-col">
          <span className="font-mono text-xs font-medium">
            {v.component.name}
            {v.component.instance && <span className="text-muted-foreground">[{v.component.instance}]</span>}
          </span>
          {v.component.evse && (
            <span className="text-xs text-muted-foreground">
              {t("points.deviceModel.evse", { id: v.component.evse.id })}
              {v.component.evse.connectorId !== undefined && ` · ${t("points.deviceModel.connector", { id: v.component.evse.connectorId })}`}
            </span>
          )}
        </span>
      ),
    },
    {
      id: "variable",
      header: t("points.deviceModel.variable"),
      cell: ({ row: { original: v } }) => (
        <span className="font-mono text-xs">
          {v.variable.name}
          {v.variable.instance && <span className="text-muted-foreground">[{v.variable.instance}]</span>}
        </span>
      ),
    },
    {
      id: "value",
      header: t("points.deviceModel.value"),
      cell: ({ row: { original: v } }) => {
        const actual = actualOf(v);
        return (
          <span className="font-mono text-xs break-all whitespace-normal">
            {actual?.value ?? "—"}
            {v.characteristics?.unit && <span className="text-muted-foreground"> {v.characteristics.unit}</span>}
          </span>
        );
      },
    },
    {
      id: "characteristics",
      header: t("points.deviceModel.characteristics"),
      meta: { priority: 3 },
      cell: ({ row: { original: v } }) => {
        const c = v.characteristics;
        if (!c) return <span className="text-muted-foreground">—</span>;
        const range = c.minLimit !== undefined || c.maxLimit !== undefined ? t("points.deviceModel.range", { min: c.minLimit ?? "…", max: c.maxLimit ?? "…" }) : "";
        return (
          <span className="flex flex-col text-xs text-muted-foreground">
            <span>
              {c.dataType}
              {range && ` · ${range}`}
            </span>
            {c.valuesList && <span className="break-all whitespace-normal">{t("points.deviceModel.values", { values: c.valuesList })}</span>}
          </span>
        );
      },
    },
    {
      id: "mutability",
      header: t("points.deviceModel.mutability"),
      meta: { priority: 2, width: 130 },
      cell: ({ row: { original: v } }) => {
        const mutability = actualOf(v)?.mutability ?? "ReadWrite";
        return (
          <Badge variant={mutability === "ReadOnly" ? "muted" : "success"}>
            {mutability === "ReadOnly" && <Lock className="size-3" aria-hidden />}
            {t(`points.deviceModel.mutabilities.${mutability}`)}
          </Badge>
        );
      },
    },
    actionsColumn<DeviceVariable>(
      "",
      (v) => {
        const mutability = actualOf(v)?.mutability ?? "ReadWrite";
        return [
          mutability !== "WriteOnly" && {
            label: t("points.deviceModel.read"),
            name: t("points.deviceModel.readVariable", { variable: label(v) }),
            icon: Download,
            disabled: !online || reading === rowId(v),
            onSelect: () => read(v),
          },
          mutability !== "ReadOnly" && {
            label: t("points.deviceModel.set"),
            name: t("points.deviceModel.setVariable", { variable: label(v) }),
            icon: Pencil,
            disabled: !online,
            onSelect: () => setEditing({ variable: v, value: mutability === "WriteOnly" ? "" : (actualOf(v)?.value ?? "") }),
          },
        ];
      },
      180,
    ),
  ];

  const allowed = editing?.variable.characteristics?.valuesList;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("points.deviceModel.title")}</CardTitle>
        <CardDescription>
          {t("points.deviceModel.description")}{" "}
          {reportedAt ? t("points.deviceModel.reportedAt", { time: dateTime(reportedAt) }) : t("points.deviceModel.neverReported")}
        </CardDescription>
        <CardAction>
          <Button onClick={() => void refresh()} disabled={!online || requesting}>
            <RefreshCw aria-hidden />
            {t("points.deviceModel.refresh")}
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {!online && <OfflineNote />}
        {evses.length > 0 && <EvseConnectors evses={evses} />}
        <Input value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={t("points.deviceModel.search")} aria-label={t("points.deviceModel.search")} maxLength={50} className="max-w-xs" />
        <TabTable
          list={list}
          columns={columns}
          getRowId={rowId}
          emptyHint={t(search ? "points.deviceModel.noMatch" : "points.deviceModel.empty")}
          label={t("points.deviceModel.title")}
          heightOffset={460}
        />
      </CardContent>
      <ChangeValueDialog
        editing={editing}
        title={t("points.deviceModel.setTitle")}
        name={editing && label(editing.variable)}
        inputId="device-variable-value"
        valueLabel={t("points.deviceModel.value")}
        maxLength={1000}
        hint={allowed && <p className="text-xs text-muted-foreground">{t("points.deviceModel.values", { values: allowed })}</p>}
        sendLabel={t("points.deviceModel.send")}
        sending={saving}
        onValueChange={(value) => setEditing((current) => current && { ...current, value })}
        onClose={() => setEditing(undefined)}
        onSend={() => void save()}
      />
    </Card>
  );
}

/**
 * The EVSEs and their connectors as the charger reports them: an EVSE is one of the product's
 * connectors, and an EVSE with several plugs shows each with its own last status and type
 * (docs/decisions/0078-one-charger-model-two-protocols.md).
 */
function EvseConnectors({ evses }: { evses: EvseConnector[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="evse-connectors" className="flex flex-col gap-2">
      <h3 id="evse-connectors" className="text-sm font-medium">
        {t("points.evses.title")}
      </h3>
      <p className="text-xs text-muted-foreground">{t("points.evses.description")}</p>
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-sm">
          <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">{t("points.evses.evse")}</th>
              <th scope="col" className="px-3 py-2 font-medium">{t("points.evses.connector")}</th>
              <th scope="col" className="px-3 py-2 font-medium">{t("points.evses.type")}</th>
              <th scope="col" className="px-3 py-2 font-medium">{t("points.evses.status")}</th>
            </tr>
          </thead>
          <tbody>
            {evses.map((c) => (
              <tr key={`${c.evseId}/${c.connectorId}`} className="border-t">
                <td className="px-3 py-2">{c.evseId}</td>
                <td className="px-3 py-2">{c.connectorId}</td>
                <td className="px-3 py-2 font-mono text-xs">{c.connectorType ?? "—"}</td>
                <td className="px-3 py-2">{c.status ? t(`points.evses.statuses.${c.status}`, { defaultValue: c.status }) : t("points.evses.unknown")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
