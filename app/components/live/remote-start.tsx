import { useTranslation } from "react-i18next";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/cn";

/** OCPP 1.6 IdToken: at most 20 characters. */
const ID_TAG_LENGTH = 20;

/**
 * The id tag a remote start runs under, prefilled by the page with the operator's remote tag;
 * the operator may type a driver's tag instead (docs/rules/monitoring.md).
 */
export function IdTagField({ id, value, onChange, className }: { id: string; value: string; onChange: (value: string) => void; className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={id}>{t("monitoring.remote.idTag")}</Label>
      <Input
        id={id}
        maxLength={ID_TAG_LENGTH}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-hint`}
        className="font-mono"
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {t("monitoring.remote.idTagHint")}
      </p>
    </div>
  );
}

/**
 * The body of PUT /station-service/remoteControl/remoteStart/{id}: an emptied id tag is left
 * out, so that the server starts with the operator's remote tag.
 */
export function remoteStartBody(connectorId: number, options: { power?: number; idTag: string }) {
  const idTag = options.idTag.trim();
  return { connectorId, ...(options.power === undefined ? {} : { power: options.power }), ...(idTag ? { idTag } : {}) };
}
