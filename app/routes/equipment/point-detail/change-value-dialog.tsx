import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

/**
 * The dialog that sends a charger one new value of one of its settings (a configuration key,
 * OCPP 1.6 §5.3; a device-model variable, OCPP 2.0.1 B05): the setting's name, the value, what
 * the charger accepts where it says so, and Send. Open while `editing` holds the value typed so far.
 */
export function ChangeValueDialog({
  editing,
  title,
  name,
  inputId,
  valueLabel,
  maxLength,
  hint,
  sendLabel,
  sending,
  onValueChange,
  onClose,
  onSend,
}: {
  editing: { value: string } | undefined;
  title: string;
  name: ReactNode;
  inputId: string;
  valueLabel: string;
  maxLength: number;
  hint?: ReactNode;
  sendLabel: string;
  sending: boolean;
  onValueChange: (value: string) => void;
  onClose: () => void;
  onSend: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={Boolean(editing)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription className="font-mono">{name}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={inputId}>{valueLabel}</Label>
          <Input id={inputId} value={editing?.value ?? ""} maxLength={maxLength} onChange={(e) => onValueChange(e.target.value)} />
          {hint}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button onClick={onSend} disabled={sending}>
            {sendLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
