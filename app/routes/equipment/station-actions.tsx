import { Power, PowerOff } from "lucide-react";
import { useCallback, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import { useCommonRowActions, type RowAction } from "~/components/data-table/row-actions";
import { useActionOutcome } from "~/components/page-actions";
import { Button, type ButtonProps } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import type { StationActionResult } from "./stations.server";

/**
 * Enable and disable (each confirmed) and delete, shared by the list and the detail page, whose
 * actions run `stationAction` (stations.server.ts). `onDeleted` runs after a delete (the detail
 * page leaves).
 */
export function useStationActions(onDeleted?: () => void) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const fetcher = useFetcher<StationActionResult>();
  useActionOutcome<{ intent: "delete" | "status"; status: string | null }>(fetcher, (data) => {
    if (data.intent === "delete") {
      toast.success(t("stations.deleted"));
      onDeleted?.();
    } else toast.success(t(data.status === "VALID" ? "stations.enabled" : "stations.disabled"));
  });

  // Stable callbacks: table cells that use them are memoised, so an open row menu survives re-renders.
  const submit = useRef(fetcher.submit);
  submit.current = fetcher.submit;

  const toggle = useCallback(
    async (station: { id: number; status: "VALID" | "INVALID" }) => {
      const enabling = station.status !== "VALID";
      const ok = await confirm({
        message: t(enabling ? "stations.confirmEnable" : "stations.confirmDisable"),
        destructive: !enabling,
        confirmLabel: t(enabling ? "common.enable" : "common.disable"),
      });
      if (ok) void submit.current({ intent: "status", id: station.id, status: enabling ? "VALID" : "INVALID" }, { method: "post" });
    },
    [confirm, t],
  );

  // The list's row actions, which ask through `RowActions` (docs/rules/console.md "Row actions").
  const common = useCommonRowActions();
  const toggleStatus = useCallback(
    (station: { id: number; status: "VALID" | "INVALID" }): RowAction =>
      common.toggle(station.status === "VALID", () => void submit.current({ intent: "status", id: station.id, status: station.status === "VALID" ? "INVALID" : "VALID" }, { method: "post" }), {
        enable: t("stations.confirmEnable"),
        disable: t("stations.confirmDisable"),
      }),
    [common, t],
  );
  const removeStation = useCallback(
    (station: { id: number }): RowAction => common.remove(() => void submit.current({ intent: "delete", id: station.id }, { method: "post" }), { message: t("stations.confirmDelete") }),
    [common, t],
  );

  return { toggle, toggleStatus, removeStation, busy: fetcher.state !== "idle" };
}

export function StatusToggle({
  station,
  onChangeStatus,
  busy,
  ...props
}: {
  station: { id: number; status: "VALID" | "INVALID" };
  onChangeStatus: (station: { id: number; status: "VALID" | "INVALID" }) => void;
  busy?: boolean;
} & Omit<ButtonProps, "onClick" | "onChange">) {
  const { t } = useTranslation();
  const enabled = station.status === "VALID";
  return (
    <Button {...props} disabled={busy} onClick={() => onChangeStatus(station)}>
      {enabled ? <PowerOff aria-hidden /> : <Power aria-hidden />}
      {t(enabled ? "common.disable" : "common.enable")}
    </Button>
  );
}
