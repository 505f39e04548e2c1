import type { ColumnDef } from "@tanstack/react-table";
import { Pencil, Rocket } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { RolloutStatus } from "../../../domain/schemas/operations";
import { DataTable } from "~/components/data-table/data-table";
import { FactsCard } from "~/components/detail-list";
import { FormField } from "~/components/form/form-field";
import { useFormat } from "~/components/format";
import { useRevalidateOn } from "~/components/live/live-state";
import { LiveIndicator } from "~/components/live/live-indicator";
import { HeaderLink, useActionOutcome } from "~/components/page-actions";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { StationOptions } from "./parts";
import { firmwareAction, firmwarePage } from "./firmware.server";

/**
 * A firmware version and its rollout per point, live as chargers report (docs/rules/operations.md
 * "Firmware"); issue it to a location's points in waves.
 */
export function loader(args: LoaderFunctionArgs) {
  return firmwarePage(args);
}

export function action(args: ActionFunctionArgs) {
  return firmwareAction(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.firmware.version };

type Rollout = Awaited<ReturnType<typeof loader>>["firmware"]["rollout"][number];

const STATUS_VARIANT: Record<RolloutStatus, "muted" | "info" | "success" | "destructive"> = {
  Issued: "muted",
  Idle: "muted",
  Downloading: "info",
  Downloaded: "info",
  Installing: "info",
  Installed: "success",
  DownloadFailed: "destructive",
  InstallationFailed: "destructive",
};

export default function FirmwareDetail() {
  const { firmware, stations, points, stationId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const [, setParams] = useSearchParams();
  const fetcher = useFetcher<typeof action>();
  const [issuing, setIssuing] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const [waveSize, setWaveSize] = useState("");
  useRevalidateOn((event) => event.type === "firmware", 300);
  useActionOutcome(fetcher, () => {
    toast.success(t("operations.fw.issuedToast"));
    setIssuing(false);
    setChosen([]);
  });

  const columns: ColumnDef<Rollout>[] = [
    { accessorKey: "serialNumber", header: t("operations.lb.serialNumber") },
    { accessorKey: "wave", header: t("operations.fw.wave"), meta: { width: 90, priority: 3 }, cell: ({ row }) => row.original.wave + 1 },
    {
      accessorKey: "delivery",
      header: t("operations.fw.delivery"),
      meta: { width: 130, priority: 2 },
      cell: ({ row }) => t(`operations.fw.deliveries.${row.original.delivery}`),
    },
    {
      accessorKey: "status",
      header: t("common.status"),
      meta: { width: 170 },
      cell: ({ row }) => (
        <Badge variant={STATUS_VARIANT[row.original.status]} data-testid={`rollout-${row.original.serialNumber}`}>
          {t(`operations.fw.statuses.${row.original.status}`)}
        </Badge>
      ),
    },
    {
      accessorKey: "firmwareVersion",
      header: t("operations.fw.reported"),
      meta: { priority: 2 },
      cell: ({ row }) => (row.original.bootedSinceIssue ? (row.original.firmwareVersion ?? "—") : t("operations.fw.notBooted")),
    },
    { accessorKey: "updatedAt", header: t("operations.lb.updatedAt"), meta: { priority: 3, width: 180 }, cell: ({ row }) => dateTime(row.original.updatedAt) },
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={firmware.version}
        description={firmware.location}
        actions={
          <>
            <LiveIndicator />
            <HeaderLink to={`/operationMaintenance/ocppUpdateConfig/edit/${firmware.id}`} icon={Pencil} label={t("common.edit")} variant="outline" />
            <Button onClick={() => setIssuing(true)}>
              <Rocket aria-hidden />
              {t("operations.fw.issue")}
            </Button>
          </>
        }
      />
      <FactsCard
        items={[
          [t("operations.fw.issued"), firmware.issuedAt ? dateTime(firmware.issuedAt) : t("operations.fw.issuedNo")],
          [t("operations.fw.retries"), firmware.retries ?? "—"],
          [t("operations.fw.retryInterval"), firmware.retryIntervalS === null ? "—" : `${firmware.retryIntervalS} s`],
          [t("operations.fw.retrieveDate"), firmware.retrieveDate ? dateTime(firmware.retrieveDate) : "—"],
          [t("operations.fw.description"), firmware.description ?? "—"],
          [t("operations.fw.signed"), firmware.signed ? t("operations.fw.signedYes") : t("operations.fw.signedNo")],
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("operations.fw.rollout")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DataTable
            columns={columns}
            page={{ records: firmware.rollout, total: firmware.rollout.length, current: 1, size: Math.max(1, firmware.rollout.length) }}
            onPageChange={() => undefined}
            getRowId={(r) => String(r.pointId)}
            emptyHint={t("operations.fw.noRollout")}
            label={t("operations.fw.rollout")}
            heightOffset={480}
          />
        </CardContent>
      </Card>
      <Dialog open={issuing} onOpenChange={setIssuing}>
        <DialogContent>
          <fetcher.Form method="post" className="flex flex-col gap-4">
            <DialogHeader>
              <DialogTitle>{t("operations.fw.issue")}</DialogTitle>
              <DialogDescription>{t("operations.fw.issueHint")}</DialogDescription>
            </DialogHeader>
            <input type="hidden" name="intent" value="issue" />
            <FormField id="fw-station" label={t("operations.lb.station")}>
              <NativeSelect
                id="fw-station"
                value={stationId ? String(stationId) : ""}
                onChange={(e) => {
                  setChosen([]);
                  setParams(e.target.value ? { stationId: e.target.value } : {}, { replace: true, preventScrollReset: true });
                }}
              >
                <StationOptions stations={stations} empty={t("ui.form.selectPlaceholder")} />
              </NativeSelect>
            </FormField>
            <div className="flex max-h-64 flex-col gap-2 overflow-y-auto" tabIndex={0} aria-label={t("operations.lb.points")}>
              {points.map((p) => (
                <div key={p.id} className="flex items-center gap-2">
                  <Checkbox
                    id={`fw-point-${p.id}`}
                    name="pointId"
                    value={String(p.id)}
                    checked={chosen.includes(p.id)}
                    onCheckedChange={(on) => setChosen(on ? [...chosen, p.id] : chosen.filter((id) => id !== p.id))}
                  />
                  <Label htmlFor={`fw-point-${p.id}`} className="font-normal">
                    {p.serialNumber} <span className="text-muted-foreground">· {p.firmwareVersion ?? "—"}</span>
                  </Label>
                </div>
              ))}
            </div>
            <FormField id="fw-wave" label={t("operations.fw.waveSize")} hint={t("operations.fw.waveHint")}>
              <Input id="fw-wave" name="waveSize" inputMode="numeric" value={waveSize} onChange={(e) => setWaveSize(e.target.value.replace(/\D/g, ""))} />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setIssuing(false)}>
                {t("common.cancel")}
              </Button>
              <Button type="submit" disabled={chosen.length === 0 || fetcher.state !== "idle"}>
                {t("operations.fw.issueTo", { count: chosen.length })}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
