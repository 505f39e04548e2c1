import type { ColumnDef } from "@tanstack/react-table";
import { Stethoscope } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { diagnoseInput } from "../../../../domain/schemas/equipment";
import { FormField } from "~/components/form/form-field";
import { useFormat } from "~/components/format";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toast";
import { ApiError, useApi } from "~/lib/api";
import { OfflineNote } from "./configuration-tab";
import type { Diagnosis } from "./types";
import { RefreshButton, TabTable } from "./tab-table";
import { useApiPage } from "./use-api-page";
import { instantOf } from "~/lib/datetime-local";

/** Upload status: -1 failed, 1 waiting, 2 uploading, 3 uploaded (docs/rules/ocpp.md "Diagnostics"). */
const DIAGNOSIS_STATUS_VARIANT: Record<number, "destructive" | "muted" | "info" | "success"> = { [-1]: "destructive", 1: "muted", 2: "info", 3: "success" };


/**
 * The diagnostics tab (docs/rules/equipment.md "Point pages"): ask the charger to upload its diagnostics to
 * an FTP or HTTP address (GetDiagnostics), then follow each request's upload status.
 */
export function DiagnosticsTab({ pointId, online }: { pointId: number; online: boolean }) {
  const { t } = useTranslation();
  const list = useApiPage("/station-service/diagnosis", { query: { pointId } });
  const columns = useDiagnosisColumns();

  return (
    <div className="flex flex-col gap-4">
      <DiagnosticsRequestForm pointId={pointId} online={online} onSent={list.reload} />
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold">{t("points.diagnostics.requests")}</h2>
        <RefreshButton list={list} />
      </div>
      <TabTable list={list} columns={columns} emptyHint={t("points.diagnostics.empty")} label={t("points.diagnostics.requests")} heightOffset={520} />
    </div>
  );
}

/**
 * The request form (GetDiagnostics to an FTP or HTTP address, with an optional period), shared by the
 * point's tab and the diagnostics screen across points (docs/rules/ocpp.md "Diagnostics").
 */
export function DiagnosticsRequestForm({ pointId, online, onSent }: { pointId: number; online: boolean; onSent: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [values, setValues] = useState({ location: "", startTime: "", stopTime: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { location: values.location, startTime: instantOf(values.startTime), stopTime: instantOf(values.stopTime) };
    const checked = diagnoseInput.safeParse(body);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), t(issue.message)])));
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await api.post("/station-service/point/{id}/diagnose", { params: { id: pointId }, body });
      toast.success(t("points.diagnostics.sent"));
      onSent();
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fields);
    } finally {
      setSending(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("points.diagnostics.title")}</CardTitle>
        <CardDescription>{t("points.diagnostics.description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {!online && <OfflineNote />}
        <form onSubmit={submit} noValidate className="grid items-end gap-4 md:grid-cols-[2fr_1fr_1fr_auto]">
          <FormField id="diagnosis-location" label={t("points.diagnostics.location")} required error={errors.location}>
            <Input
              id="diagnosis-location"
              value={values.location}
              placeholder="ftp://user:password@files.example.com/diagnostics/"
              onChange={(e) => setValues({ ...values, location: e.target.value })}
              aria-invalid={errors.location ? true : undefined}
            />
          </FormField>
          <FormField id="diagnosis-start" label={t("points.diagnostics.startTime")} error={errors.startTime}>
            <Input id="diagnosis-start" type="datetime-local" value={values.startTime} onChange={(e) => setValues({ ...values, startTime: e.target.value })} />
          </FormField>
          <FormField id="diagnosis-stop" label={t("points.diagnostics.stopTime")} error={errors.stopTime}>
            <Input id="diagnosis-stop" type="datetime-local" value={values.stopTime} onChange={(e) => setValues({ ...values, stopTime: e.target.value })} />
          </FormField>
          <Button type="submit" disabled={!online || sending}>
            <Stethoscope aria-hidden />
            {t("points.diagnostics.request")}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** The columns of a diagnostics list, shared by the point's tab and the screen across points. */
export function useDiagnosisColumns(): ColumnDef<Diagnosis>[] {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  return [
    { accessorKey: "requestedAt", header: t("points.diagnostics.requestedAt"), meta: { width: 180 }, cell: ({ row }) => dateTime(row.original.requestedAt) },
    { accessorKey: "location", header: t("points.diagnostics.location"), meta: { priority: 3 }, cell: ({ row }) => <span className="font-mono text-xs">{row.original.location}</span> },
    { accessorKey: "fileName", header: t("points.diagnostics.fileName"), meta: { priority: 2 }, cell: ({ row }) => row.original.fileName ?? "—" },
    { accessorKey: "type", header: t("points.diagnostics.type"), meta: { priority: 2, width: 120 }, cell: ({ row }) => t(`points.diagnostics.types.${row.original.type}`) },
    {
      accessorKey: "status",
      header: t("common.status"),
      meta: { width: 140 },
      cell: ({ row }) => <Badge variant={DIAGNOSIS_STATUS_VARIANT[row.original.status] ?? "muted"}>{t(`points.diagnostics.statuses.${row.original.status}`)}</Badge>,
    },
    { accessorKey: "updatedAt", header: t("points.diagnostics.updatedAt"), meta: { priority: 3, width: 180 }, cell: ({ row }) => dateTime(row.original.updatedAt) },
  ];
}
