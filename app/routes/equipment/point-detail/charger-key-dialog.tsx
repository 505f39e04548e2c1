import { Copy, KeyRound, PenLine, ShieldCheck, TriangleAlert } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { KEY_FORMATS, type KeyFormat } from "../../../../domain/ocpp/authorization-key";
import { chargerEndpoint, securityProfileOf } from "../../../../domain/ocpp/endpoint";
import { keyInput } from "../../../../domain/schemas/equipment";
import { FormField } from "~/components/form/form-field";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { ApiError, useApi } from "~/lib/api";
import { cn } from "~/lib/cn";

/** What the charger needs besides its key: its operator's code and the heartbeat interval the server answers at boot. */
export interface ChargerSetup {
  operatorCode: string;
  heartbeatInterval: number;
}

/**
 * Generate or rotate the charger key, or set the key the charger was delivered with, as hex or
 * text (docs/rules/equipment.md "Charger keys"): the new key is shown once, with everything
 * needed to configure the charger (endpoint, Basic-auth username, configuration keys), each with
 * a copy button; only its keyed hash is kept. Optionally it is pushed first to a connected
 * charger (ChangeConfiguration AuthorizationKey); when the charger refuses, nothing changes.
 */
export function ChargerKeyDialog({
  pointId,
  serialNumber,
  setup,
  hasKey,
  online,
}: {
  pointId: number;
  serialNumber: string;
  setup: ChargerSetup;
  hasKey: boolean;
  online: boolean;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const revalidator = useRevalidator();
  const pushId = useId();
  const [open, setOpen] = useState(false);
  const [push, setPush] = useState(false);
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<{ key: string; pushed: boolean }>();
  const [choosing, setChoosing] = useState(false);
  const [chosen, setChosen] = useState<{ key: string; keyFormat: KeyFormat }>({ key: "", keyFormat: "hex" });
  const [errors, setErrors] = useState<Record<string, string>>({});

  const issue = async (body: { push: boolean; key?: string; keyFormat?: KeyFormat }) => {
    setBusy(true);
    try {
      const result = await api.post("/station-service/point/{id}/key", { params: { id: pointId }, body });
      setIssued(result);
      // The page behind the dialog shows the key as set, with its date, without a reload.
      void revalidator.revalidate();
    } catch (error) {
      // The API client has shown why (a refusal leaves the old key working); a bad field says so.
      if (error instanceof ApiError) setErrors(error.fields);
    } finally {
      setBusy(false);
    }
  };

  const setOwn = (event: FormEvent) => {
    event.preventDefault();
    const body = { push: push && online, ...chosen };
    const checked = keyInput.safeParse(body);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), t(issue.message)])));
      return;
    }
    setErrors({});
    void issue(body);
  };

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setIssued(undefined);
      setPush(false);
      setChoosing(false);
      setChosen({ key: "", keyFormat: "hex" });
      setErrors({});
    }
  };

  const pushChoice = (
    <div className="flex items-start gap-3 rounded-md border p-3">
      <Checkbox id={pushId} checked={push} onCheckedChange={(value) => setPush(value === true)} disabled={!online} className="mt-0.5" />
      <div className="grid gap-1">
        <Label htmlFor={pushId}>{t("points.key.push")}</Label>
        <p className="text-xs text-muted-foreground">{t(online ? "points.key.pushHint" : "points.key.pushOffline")}</p>
      </div>
    </div>
  );

  return (
    <Dialog open={open} onOpenChange={close}>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <KeyRound aria-hidden />
        {t(hasKey ? "points.key.rotate" : "points.key.generate")}
      </Button>
      <DialogContent className={cn(issued && "sm:max-w-2xl")}>
        {issued ? (
          <>
            <DialogHeader>
              <DialogTitle>{t("points.key.issuedTitle")}</DialogTitle>
              <DialogDescription>{t(issued.pushed ? "points.key.issuedPushed" : "points.key.issuedText")}</DialogDescription>
            </DialogHeader>
            <div className="flex items-center justify-between gap-3 rounded-md border bg-muted px-4 py-3">
              <code data-testid="charger-key" className="font-mono text-sm break-all">
                {issued.key}
              </code>
              <CopyButton value={issued.key} label={t("points.key.copyItem", { item: t("points.key.title") })} copied={t("points.key.copied")}>
                {t("points.key.copy")}
              </CopyButton>
            </div>
            <p className="flex items-start gap-2 text-xs text-muted-foreground">
              <TriangleAlert className="mt-0.5 size-3.5 shrink-0 text-warning" aria-hidden />
              {t("points.key.once")}
            </p>
            <ChargerConnection serialNumber={serialNumber} setup={setup} chargerKey={issued.key} />
            <DialogFooter>
              <Button onClick={() => close(false)}>{t("points.key.done")}</Button>
            </DialogFooter>
          </>
        ) : choosing ? (
          <form onSubmit={setOwn} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{t("points.key.setTitle")}</DialogTitle>
              <DialogDescription>{t("points.key.setText")}</DialogDescription>
            </DialogHeader>
            <FormField id="charger-key-format" label={t("points.key.format")} error={errors.keyFormat}>
              <NativeSelect
                id="charger-key-format"
                value={chosen.keyFormat}
                onChange={(e) => setChosen({ ...chosen, keyFormat: e.target.value as KeyFormat })}
                aria-invalid={errors.keyFormat ? true : undefined}
              >
                {KEY_FORMATS.map((format) => (
                  <option key={format} value={format}>
                    {t(`points.key.formats.${format}`)}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField id="charger-key-value" label={t("points.key.value")} hint={t("points.key.valueHint")} required error={errors.key}>
              <Input
                id="charger-key-value"
                className="font-mono"
                autoComplete="off"
                spellCheck={false}
                value={chosen.key}
                onChange={(e) => setChosen({ ...chosen, key: e.target.value })}
                aria-invalid={errors.key ? true : undefined}
              />
            </FormField>
            {pushChoice}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setChoosing(false)}>
                <KeyRound aria-hidden />
                {t(hasKey ? "points.key.rotate" : "points.key.generate")}
              </Button>
              <Button type="submit" disabled={busy}>
                <PenLine aria-hidden />
                {t("points.key.setKey")}
              </Button>
            </DialogFooter>
          </form>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>{t(hasKey ? "points.key.rotateTitle" : "points.key.generateTitle")}</DialogTitle>
              <DialogDescription>{t(hasKey ? "points.key.rotateText" : "points.key.generateText")}</DialogDescription>
            </DialogHeader>
            {pushChoice}
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                {t("common.cancel")}
              </Button>
              <Button variant="outline" onClick={() => setChoosing(true)}>
                <PenLine aria-hidden />
                {t("points.key.setOwn")}
              </Button>
              <Button onClick={() => void issue({ push: push && online })} disabled={busy}>
                <KeyRound aria-hidden />
                {t(hasKey ? "points.key.rotate" : "points.key.generate")}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * How the charger connects with its new key: the endpoint as the browser reaches this console,
 * the Basic-auth username (the serial number, OCPP 1.6 security whitepaper), and the
 * configuration keys to set on the charger.
 */
function ChargerConnection({ serialNumber, setup, chargerKey }: { serialNumber: string; setup: ChargerSetup; chargerKey: string }) {
  const { t } = useTranslation();
  const endpoint = chargerEndpoint(window.location, setup.operatorCode, serialNumber);
  const profile = securityProfileOf(endpoint);
  const connection: [string, string, string][] = [
    ["endpoint", t("points.key.endpoint"), endpoint],
    ["username", t("points.key.username"), serialNumber],
  ];
  const configuration: [string, string, string][] = [
    ["AuthorizationKey", chargerKey, t("points.key.config.AuthorizationKey")],
    ["SecurityProfile", String(profile), t("points.key.config.SecurityProfile")],
    ["HeartbeatInterval", String(setup.heartbeatInterval), t("points.key.config.HeartbeatInterval")],
  ];
  const copied = t("points.key.copiedValue");
  return (
    <section aria-labelledby="charger-connection" className="flex flex-col gap-3">
      <h3 id="charger-connection" className="text-sm font-semibold">
        {t("points.key.connectTitle")}
      </h3>
      <dl className="grid gap-2">
        {connection.map(([id, label, value]) => (
          <div key={id} className="grid items-center gap-x-3 gap-y-1 rounded-md border px-3 py-2 sm:grid-cols-[10rem_1fr_auto]">
            <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
            <dd className="min-w-0 font-mono text-sm break-all" data-testid={`charger-${id}`}>
              {value}
            </dd>
            <CopyButton value={value} label={t("points.key.copyItem", { item: label })} copied={copied} />
          </div>
        ))}
        <div className="grid items-center gap-x-3 gap-y-1 rounded-md border px-3 py-2 sm:grid-cols-[10rem_1fr_auto]">
          <dt className="text-xs font-medium text-muted-foreground">{t("points.key.password")}</dt>
          <dd className="text-sm">{t("points.key.passwordIsKey")}</dd>
        </div>
      </dl>
      <h3 className="text-sm font-semibold">{t("points.key.configTitle")}</h3>
      <table className="w-full text-sm" aria-label={t("points.key.configTitle")}>
        <thead className="text-left text-xs text-muted-foreground">
          <tr>
            <th className="py-1 pr-3 font-medium">{t("points.key.configKey")}</th>
            <th className="py-1 pr-3 font-medium">{t("points.key.configValue")}</th>
            <th className="py-1 font-medium">
              <span className="sr-only">{t("points.key.copy")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {configuration.map(([key, value, hint]) => (
            <tr key={key} className="border-t align-top" data-testid={`config-${key}`}>
              <td className="py-2 pr-3 font-mono text-xs">{key}</td>
              <td className="py-2 pr-3">
                <span className="block font-mono text-xs break-all" data-testid="config-value">
                  {value}
                </span>
                <span className="text-xs text-muted-foreground">{hint}</span>
              </td>
              <td className="py-1.5 text-right">
                <CopyButton value={value} label={t("points.key.copyItem", { item: key })} copied={copied} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="grid gap-1.5 text-xs text-muted-foreground">
        {([1, 2] as const).map((level) => (
          <li key={level} className={cn("flex items-start gap-2", level === profile && "text-foreground")} data-current={level === profile || undefined}>
            <ShieldCheck className={cn("mt-0.5 size-3.5 shrink-0", level === profile ? "text-success" : "opacity-50")} aria-hidden />
            {t(`points.key.profile${level}`)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Copies a value to the clipboard and says so; the accessible name says what is copied. */
function CopyButton({ value, label, copied, children }: { value: string; label: string; copied: string; children?: string }) {
  return (
    <Button
      variant="outline"
      size={children ? "sm" : "icon-sm"}
      aria-label={children ? undefined : label}
      title={label}
      onClick={async () => {
        await navigator.clipboard?.writeText(value);
        toast.success(copied);
      }}
    >
      <Copy aria-hidden />
      {children}
    </Button>
  );
}
