import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { DialogFooter } from "~/components/ui/dialog";

/**
 * A form dialog's footer: Cancel closes it, the submit button (Save unless named) sends the form
 * and waits while it is being sent.
 */
export function FormDialogFooter({ onCancel, busy, submitLabel }: { onCancel: () => void; busy: boolean; submitLabel?: string }) {
  const { t } = useTranslation();
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel}>
        {t("common.cancel")}
      </Button>
      <Button type="submit" disabled={busy}>
        {submitLabel ?? t("common.save")}
      </Button>
    </DialogFooter>
  );
}
