import { Plug } from "lucide-react";
import { useTranslation } from "react-i18next";
import { admittedSubprotocols, chargerEndpoint, shortChargerEndpoint } from "../../../../domain/ocpp/endpoint";
import { useFormat } from "~/components/format";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { CopyButton } from "~/components/ui/copy-button";

/**
 * What a charger is set up with to connect (docs/rules/equipment.md "Point pages", docs/rules/ocpp.md
 * "Connection"): the address as this page was reached (`wss` behind https), in full and short,
 * the charger id (the Basic-auth username), whether a key is set (the key itself is shown only
 * when it is set or rotated) and the subprotocols the point admits, each with a copy button.
 */
export function ConnectionCard({
  point,
  operatorCode,
  origin,
}: {
  point: { serialNumber: string; ocppVersion: "AUTO" | "OCPP16" | "OCPP201"; hasKey: boolean; keySetAt: string | null };
  operatorCode: string;
  origin: { protocol: string; host: string };
}) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const subprotocols = admittedSubprotocols(point.ocppVersion).join(", ");
  const rows: { id: string; label: string; value: string; copy: boolean }[] = [
    { id: "endpoint", label: t("points.connection.endpoint"), value: chargerEndpoint(origin, operatorCode, point.serialNumber), copy: true },
    { id: "short-endpoint", label: t("points.connection.shortEndpoint"), value: shortChargerEndpoint(origin, point.serialNumber), copy: true },
    { id: "charger-id", label: t("points.connection.chargerId"), value: point.serialNumber, copy: true },
    {
      id: "key",
      label: t("points.connection.key"),
      value: point.hasKey
        ? t("points.connection.keySet", { date: dateTime(point.keySetAt), action: t("points.key.rotate") })
        : t("points.connection.keyNone", { action: t("points.key.generate") }),
      copy: false,
    },
    { id: "subprotocols", label: t("points.connection.subprotocols"), value: subprotocols, copy: true },
  ];
  return (
    <Card data-testid="point-connection">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Plug className="size-4" aria-hidden />
          {t("points.connection.title")}
        </CardTitle>
        <CardDescription>{t("points.connection.text")}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-2">
          {rows.map((row) => (
            <div key={row.id} className="grid items-center gap-x-3 gap-y-1 rounded-md border px-3 py-2 sm:grid-cols-[12rem_1fr]">
              <dt className="text-xs font-medium text-muted-foreground">{row.label}</dt>
              <dd className="flex min-w-0 items-center justify-between gap-3">
                <span className={row.copy ? "min-w-0 font-mono text-sm break-all" : "text-sm"} data-testid={`connection-${row.id}`}>
                  {row.value}
                </span>
                {row.copy && <CopyButton value={row.value} item={row.label} />}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
