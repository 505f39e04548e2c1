import { Trash2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";

/** A table row's Delete, after a destructive confirmation (docs/rules/console.md "Messages and toasts"). */
export function DeleteRowButton({ message, onConfirmed, disabled, title }: { message?: string; onConfirmed: () => void; disabled?: boolean; title?: string }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  return (
    <Button
      variant="ghost"
      size="sm"
      className="text-destructive"
      disabled={disabled}
      title={title}
      onClick={async () => {
        if (await confirm({ message: message ?? t("common.confirmDelete"), destructive: true, confirmLabel: t("common.delete") })) onConfirmed();
      }}
    >
      <Trash2 aria-hidden />
      {t("common.delete")}
    </Button>
  );
}

/** The options of a location select: a first empty choice, then each location by name. */
export function StationOptions({ stations, empty, withLoad = false }: { stations: { id: number; name: string; powerLimit?: number | null }[]; empty: string; withLoad?: boolean }) {
  return (
    <>
      <option value="">{empty}</option>
      {stations.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
          {withLoad && s.powerLimit != null ? ` · ${s.powerLimit} kW` : ""}
        </option>
      ))}
    </>
  );
}
