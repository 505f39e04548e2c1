import { Download, Lock, Pencil, WifiOff } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { RowsTable } from "~/components/rows-table";
import { TableCell, TableHead, TableRow } from "~/components/ui/table";
import { toast } from "~/components/ui/toast";
import { useApi, useBusyCall } from "~/lib/api";
import { ChangeValueDialog } from "./change-value-dialog";

interface ConfigurationKey {
  key: string;
  readonly: boolean;
  value?: string;
}

/** Commands need a connected charger: blocked with a prompt when offline (docs/rules/equipment.md "Point pages"). */
export function OfflineNote() {
  const { t } = useTranslation();
  return (
    <p role="note" className="flex items-center gap-2 rounded-lg border border-info/30 bg-info/10 px-4 py-3 text-sm">
      <WifiOff className="size-4 shrink-0 text-info" aria-hidden />
      {t("errors.pointOffline")}
    </p>
  );
}

/**
 * The configuration tab (OCPP 1.6 §5.8, §5.3): GetConfiguration lists the charger's keys;
 * writable ones change through ChangeConfiguration, read-only ones stay locked.
 */
export function ConfigurationTab({ pointId, online }: { pointId: number; online: boolean }) {
  const { t } = useTranslation();
  const api = useApi();
  const [keys, setKeys] = useState<ConfigurationKey[]>();
  const [unknown, setUnknown] = useState<string[]>([]);
  const [filter, setFilter] = useState("");
  const [loading, whileLoading] = useBusyCall();
  const [editing, setEditing] = useState<{ key: string; value: string }>();
  const [saving, whileSaving] = useBusyCall();

  const read = () =>
    whileLoading(async () => {
      const reply = await api.post("/station-service/point/{id}/command", { params: { id: pointId }, body: { action: "GetConfiguration", payload: {} } });
      // The reply is GetConfiguration's (OCPP 1.6 §6.25); `in` picks it out of every action's.
      setKeys("configurationKey" in reply ? [...(reply.configurationKey ?? [])].sort((a, b) => a.key.localeCompare(b.key)) : []);
      setUnknown("unknownKey" in reply ? (reply.unknownKey ?? []) : []);
    });

  const save = async () => {
    if (!editing) return;
    // A refusal carries the charger's status, in the client's toast.
    await whileSaving(async () => {
      const reply = await api.post("/station-service/point/{id}/command", { params: { id: pointId }, body: { action: "ChangeConfiguration", payload: editing } });
      setKeys((list) => list?.map((k) => (k.key === editing.key ? { ...k, value: editing.value } : k)));
      if ("status" in reply && reply.status === "RebootRequired") toast.warning(t("points.config.rebootRequired", { key: editing.key }));
      else toast.success(t("points.config.changed", { key: editing.key }));
      setEditing(undefined);
    });
  };

  const shown = useMemo(() => keys?.filter((k) => k.key.toLowerCase().includes(filter.trim().toLowerCase())), [keys, filter]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("points.config.title")}</CardTitle>
        <CardDescription>{t("points.config.description")}</CardDescription>
        <CardAction>
          <Button onClick={() => void read()} disabled={!online || loading}>
            <Download aria-hidden />
            {t(keys ? "points.config.reread" : "points.config.read")}
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {!online && <OfflineNote />}
        {keys && (
          <>
            <Input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={t("points.config.filter")} aria-label={t("points.config.filter")} className="max-w-xs" />
            <div className="overflow-auto rounded-lg border">
              <RowsTable
                label={t("points.config.title")}
                head={
                  <>
                    <TableHead>{t("points.config.key")}</TableHead>
                    <TableHead>{t("points.config.value")}</TableHead>
                    <TableHead className="w-36">{t("points.config.access")}</TableHead>
                    <TableHead className="w-28" />
                  </>
                }
                rows={(shown ?? []).map((k) => (
                  <TableRow key={k.key}>
                    <TableCell className="font-mono text-xs font-medium">{k.key}</TableCell>
                    <TableCell className="max-w-md font-mono text-xs break-all whitespace-normal">{k.value ?? "—"}</TableCell>
                    <TableCell>
                      {k.readonly ? (
                        <Badge variant="muted">
                          <Lock className="size-3" aria-hidden />
                          {t("points.config.readonly")}
                        </Badge>
                      ) : (
                        <Badge variant="success">{t("points.config.writable")}</Badge>
                      )}
                    </TableCell>
                    <TableCell>
                      {!k.readonly && (
                        <Button variant="ghost" size="sm" onClick={() => setEditing({ key: k.key, value: k.value ?? "" })} aria-label={t("points.config.editKey", { key: k.key })}>
                          <Pencil aria-hidden />
                          {t("common.edit")}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              />
            </div>
            {unknown.length > 0 && <p className="text-xs text-muted-foreground">{t("points.config.unknown", { keys: unknown.join(", ") })}</p>}
          </>
        )}
        {!keys && online && <p className="py-6 text-center text-sm text-muted-foreground">{t("points.config.hint")}</p>}
      </CardContent>
      <ChangeValueDialog
        editing={editing}
        title={t("points.config.changeTitle")}
        name={editing?.key}
        inputId="configuration-value"
        valueLabel={t("points.config.value")}
        maxLength={500}
        sendLabel={t("points.config.send")}
        sending={saving}
        onValueChange={(value) => setEditing((current) => current && { ...current, value })}
        onClose={() => setEditing(undefined)}
        onSend={() => void save()}
      />
    </Card>
  );
}

/** The local list tab (OCPP 1.6 §5.10): the version of the charger's local authorisation list. */
export function LocalListTab({ pointId, online }: { pointId: number; online: boolean }) {
  const { t } = useTranslation();
  const api = useApi();
  const [version, setVersion] = useState<number>();
  const [loading, whileLoading] = useBusyCall();

  const read = () =>
    whileLoading(async () => {
      const reply = await api.post("/station-service/point/{id}/command", { params: { id: pointId }, body: { action: "GetLocalListVersion", payload: {} } });
      if ("listVersion" in reply) setVersion(reply.listVersion);
    });

  const meaning = version === undefined ? undefined : version === -1 ? "points.localList.disabled" : version === 0 ? "points.localList.empty" : "points.localList.installed";

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("points.localList.title")}</CardTitle>
        <CardDescription>{t("points.localList.description")}</CardDescription>
        <CardAction>
          <Button onClick={() => void read()} disabled={!online || loading}>
            <Download aria-hidden />
            {t("points.localList.read")}
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {!online && <OfflineNote />}
        {version !== undefined && meaning && (
          <div className="flex items-center gap-4 rounded-lg border bg-muted/20 p-4" data-testid="local-list-version">
            <span className="text-3xl font-semibold tabular-nums">{version}</span>
            <span className="text-sm text-muted-foreground">{t(meaning, { version })}</span>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
