import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import type { OcpiLocation } from "../../../domain/schemas/ocpi/locations";
import { FormDialogFooter } from "~/components/form/dialog-footer";
import { useActionOutcome } from "~/components/page-actions";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";

/**
 * What the roaming screens share to send commands (docs/rules/ocpi.md "Commands"): the dialog that
 * asks what a command at a partner's location needs, and the toast with the partner's answer.
 */

/** A command at a location, with the location as the partner sent it (its EVSEs and connectors). */
export interface CommandTarget {
  command: "START_SESSION" | "RESERVE_NOW" | "UNLOCK_CONNECTOR";
  platformId: number;
  location: OcpiLocation;
}

type Sent = { record: { command: string; responseResult: string | null } };

/** Toasts the partner's CommandResponse when a command was sent; field messages go to `onFieldError`. */
export function useCommandOutcome(fetcher: Parameters<typeof useActionOutcome>[0], onSent?: () => void, onFieldError?: (name: string, message: string) => void) {
  const { t } = useTranslation();
  useActionOutcome<Sent>(
    fetcher,
    ({ record }) => {
      toast.success(t("ocpiCommands.sent", { command: t(`ocpiCommands.command.${record.command}`), response: t(`ocpiCommands.response.${record.responseResult}`) }));
      onSent?.();
    },
    onFieldError,
  );
}

/** The badge colour of a CommandResponse or CommandResult. */
export function answerVariant(answer: string | null): "success" | "warning" | "destructive" | "muted" {
  if (answer === "ACCEPTED") return "success";
  if (answer === "TIMEOUT" || answer === "NOT_SUPPORTED" || answer === "UNKNOWN_SESSION" || answer === "UNKNOWN_RESERVATION") return "warning";
  if (answer === null || answer === "CANCELED_RESERVATION") return "muted";
  return "destructive";
}

export function CommandDialog({ target, onClose }: { target: CommandTarget | null; onClose: () => void }) {
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>{target && <CommandForm key={`${target.platformId}:${target.location.id}:${target.command}`} target={target} onClose={onClose} />}</DialogContent>
    </Dialog>
  );
}

function CommandForm({ target, onClose }: { target: CommandTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [evseUid, setEvseUid] = useState("");
  const { command, location } = target;
  useCommandOutcome(fetcher, onClose, (name, message) => setErrors((e) => ({ ...e, [name]: message })));
  const evses = location.evses ?? [];
  const connectors = evses.find((e) => e.uid === evseUid)?.connectors ?? [];
  // UNLOCK_CONNECTOR names one connector; the others may leave the choice to the charger (OCPI 2.2.1 §13.3.4, §13.3.5).
  const optional = command !== "UNLOCK_CONNECTOR";
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setErrors({});
    fetcher.submit(new FormData(event.currentTarget), { method: "post" });
  };
  const field = (name: string, label: string, control: ReactNode) => (
    <div className="flex flex-col gap-2">
      <Label htmlFor={`command-${name}`}>{label}</Label>
      {control}
      {errors[name] && (
        <p id={`command-${name}-error`} className="text-xs text-destructive">
          {errors[name]}
        </p>
      )}
    </div>
  );
  const described = (name: string) => ({ id: `command-${name}`, name, "aria-invalid": Boolean(errors[name]), "aria-describedby": errors[name] ? `command-${name}-error` : undefined });
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>{t(`ocpiCommands.dialog.${command}.title`)}</DialogTitle>
        <DialogDescription>{t(`ocpiCommands.dialog.${command}.text`, { location: location.name ? `${location.name} (${location.id})` : location.id })}</DialogDescription>
      </DialogHeader>
      <input type="hidden" name="platformId" value={target.platformId} />
      <input type="hidden" name="command" value={command} />
      <input type="hidden" name="locationId" value={location.id} />
      {field(
        "evseUid",
        t("ocpiCommands.dialog.evse"),
        <NativeSelect {...described("evseUid")} value={evseUid} onChange={(event) => setEvseUid(event.target.value)}>
          <option value="">{t(optional ? "ocpiCommands.dialog.anyEvse" : "ocpiCommands.dialog.chooseEvse")}</option>
          {evses.map((e) => (
            <option key={e.uid} value={e.uid}>
              {`${e.evse_id ?? e.uid} · ${e.status}`}
            </option>
          ))}
        </NativeSelect>,
      )}
      {command !== "RESERVE_NOW" &&
        field(
          "connectorId",
          t("ocpiCommands.dialog.connector"),
          <NativeSelect {...described("connectorId")} defaultValue="" key={evseUid}>
            <option value="">{t(optional ? "ocpiCommands.dialog.anyConnector" : "ocpiCommands.dialog.chooseConnector")}</option>
            {connectors.map((c) => (
              <option key={c.id} value={c.id}>
                {`${c.id} · ${c.standard} · ${c.power_type}`}
              </option>
            ))}
          </NativeSelect>,
        )}
      {command !== "UNLOCK_CONNECTOR" && field("tokenUid", t("ocpiCommands.dialog.token"), <Input {...described("tokenUid")} autoComplete="off" placeholder={t("ocpiCommands.dialog.tokenHint")} />)}
      {command === "RESERVE_NOW" && field("expiryDate", t("ocpiCommands.dialog.expiry"), <Input {...described("expiryDate")} type="datetime-local" />)}
      <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} submitLabel={t(`ocpiCommands.dialog.${command}.send`)} />
    </form>
  );
}
