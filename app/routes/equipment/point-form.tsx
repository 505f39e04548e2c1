import { zodResolver } from "@hookform/resolvers/zod";
import { Lock } from "lucide-react";
import { useEffect, useState } from "react";
import { useFieldArray, useForm, useWatch, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import {
  CHARGE_SPEEDS,
  defaultConnector,
  OCPP_VERSIONS,
  POINT_TYPES,
  pointInput,
  PRIVATE_TYPES,
  standardFits,
  type PointFormValues,
  type PointInput,
  type PointType,
} from "../../../domain/schemas/equipment";
import { NumberField, SelectField, TextField } from "~/components/form/fields";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { StandardGallery, StandardLabel, useConnectorStandards } from "./connector-standards";
import { TemporaryPackageDialog, type TemporaryOffer } from "../platform/temporary-package-dialog";
import { QuotaSummary } from "./point-parts";
import { loadPointForm, savePoint } from "./points.server";

/**
 * Add a charging point with its connectors, or edit one (docs/rules/equipment.md "Points"). An
 * enabled point keeps what defines the equipment; the server says so too, with 409
 * (docs/rules/equipment.md "Enabled equipment is locked").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPointForm(args);
}

export function action(args: ActionFunctionArgs) {
  return savePoint(args);
}

type Connector = NonNullable<PointFormValues["connectors"]>[number];

const share = (ratedPower: unknown, count: number) => {
  const power = Number(ratedPower);
  return Number.isFinite(power) && power > 0 && count > 0 ? String(Math.floor((power * 100) / count) / 100) : "";
};

const newConnector = (type: PointType, connectorId: number, power: string): Connector => ({
  connectorId,
  ...defaultConnector(type),
  power,
  name: "",
});

export default function PointForm() {
  const { point, stations, quota, stationId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  // Connector standards in the operator's order (docs/rules/settings.md "Display switches").
  const standards = useConnectorStandards();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const locked = point?.status === "VALID";
  // Beyond the quota, the temporary package with its price (docs/rules/platform.md "Temporary package").
  const [temporary, setTemporary] = useState<TemporaryOffer | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle") return;
    const offered = (fetcher.data as { temporary?: TemporaryOffer | null } | undefined)?.temporary;
    if (offered) setTemporary(offered);
  }, [fetcher.state, fetcher.data]);

  const form = useForm<PointFormValues, unknown, PointInput>({
    resolver: zodResolver(pointInput) as Resolver<PointFormValues, unknown, PointInput>,
    defaultValues: point
      ? {
          stationId: String(point.stationId),
          name: point.name,
          serialNumber: point.serialNumber,
          pointNo: point.pointNo,
          code: point.code ?? "",
          type: point.type,
          ratedPower: String(point.ratedPower),
          connectorCount: String(point.connectorCount),
          privateType: point.privateType,
          stationType: point.stationType ?? "",
          ocppVersion: point.ocppVersion,
          connectors: point.connectors.map((c) => ({
            connectorId: c.connectorId,
            standard: c.standard,
            power: String(c.power),
            chargeSpeed: c.chargeSpeed,
            name: c.name ?? "",
          })),
        }
      : {
          stationId: stationId ? String(stationId) : stations.length === 1 ? String(stations[0].id) : "",
          name: "",
          serialNumber: "",
          pointNo: "",
          code: "",
          type: "AC",
          ratedPower: "22",
          connectorCount: "2",
          privateType: "Public",
          stationType: "",
          ocppVersion: "AUTO",
          connectors: [newConnector("AC", 1, "11"), newConnector("AC", 2, "11")],
        },
  });
  const connectors = useFieldArray({ control: form.control, name: "connectors" });
  const type = useWatch({ control: form.control, name: "type" }) as PointType;
  const count = Number(useWatch({ control: form.control, name: "connectorCount" }));
  const ratedPower = useWatch({ control: form.control, name: "ratedPower" });

  // One connector row per connector: rows follow the count, new ones with the type's default.
  useEffect(() => {
    if (!Number.isInteger(count) || count < 1 || count > 99) return;
    const rows = form.getValues("connectors") ?? [];
    if (rows.length < count) {
      connectors.append(Array.from({ length: count - rows.length }, (_, i) => newConnector(type, rows.length + i + 1, share(ratedPower, count))));
    } else if (rows.length > count) {
      connectors.remove(Array.from({ length: rows.length - count }, (_, i) => count + i));
    }
    // Only a change of the count adds or removes rows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [count]);

  // A standard that does not fit a new type is replaced by the type's default (docs/rules/equipment.md "Connectors").
  useEffect(() => {
    (form.getValues("connectors") ?? []).forEach((row, index) => {
      if (!standardFits(type, row.standard)) {
        form.setValue(`connectors.${index}.standard`, defaultConnector(type).standard);
        form.setValue(`connectors.${index}.chargeSpeed`, defaultConnector(type).chargeSpeed);
      }
    });
  }, [type, form]);

  useActionOutcome<{ id: number }>(
    fetcher,
    (data) => {
      toast.success(t("points.saved"));
      navigate(`/equipmentManagement/point/pointDetail/${data.id}`);
    },
    (name, message) => form.setError(name as keyof PointFormValues, { message }),
  );

  // An error of the whole list (numbering, count) rather than of one connector's field.
  const listErrors = form.formState.errors.connectors;
  const listError = listErrors?.root?.message ?? listErrors?.message;

  // The form's own values, not the parsed ones: react-hook-form leaves disabled (locked) fields out of
  // those, and the server needs every field; it parses them with the same schema.
  const save = () => fetcher.submit(JSON.stringify(form.getValues()), { method: "post", encType: "application/json" });
  const submit = form.handleSubmit(save);
  const cancelTo = point ? `/equipmentManagement/point/pointDetail/${point.id}` : "/equipmentManagement/point";

  return (
    <FormPage onSubmit={submit} title={point ? t("points.edit") : t("points.add")} cancelTo={cancelTo} sending={fetcher}>
      {locked && (
        <p role="note" className="flex items-center gap-2 rounded-lg border border-warning/30 bg-warning/10 px-4 py-3 text-sm">
          <Lock className="size-4 shrink-0 text-warning" aria-hidden />
          {t("points.lockedHint")}
        </p>
      )}
      <FormSection title={t("points.sections.general")} columns="three">
        <SelectField
          control={form.control}
          name="stationId"
          label={t("points.fields.station")}
          required
          disabled={locked}
          options={stations.map((s) => ({ value: String(s.id), label: s.status === "VALID" ? s.name : `${s.name} (${t("common.statusValues.INVALID")})` }))}
        />
        <TextField control={form.control} name="name" label={t("points.fields.name")} required maxLength={64} />
        <TextField
          control={form.control}
          name="serialNumber"
          label={t("points.fields.serialNumber")}
          hint={t("points.hints.serialNumber")}
          required
          disabled={locked}
          maxLength={48}
        />
        <TextField control={form.control} name="pointNo" label={t("points.fields.pointNo")} required maxLength={32} />
        <TextField control={form.control} name="code" label={t("points.fields.code")} maxLength={32} />
        <SelectField
          control={form.control}
          name="privateType"
          label={t("points.fields.privateType")}
          required
          options={PRIVATE_TYPES.map((value) => ({ value, label: t(`points.privateTypes.${value}`) }))}
        />
        <TextField control={form.control} name="stationType" label={t("points.fields.stationType")} hint={t("points.hints.stationType")} maxLength={32} />
        {/* Not locked on an enabled point: it chooses the wire, not the equipment (docs/rules/equipment.md "Points"). */}
        <SelectField
          control={form.control}
          name="ocppVersion"
          label={t("points.fields.ocppVersion")}
          hint={t("points.hints.ocppVersion")}
          required
          options={OCPP_VERSIONS.map((value) => ({ value, label: t(`points.ocppVersions.${value}`) }))}
        />
      </FormSection>
      <FormSection title={t("points.sections.equipment")} description={<QuotaSummary quota={quota} />} columns="three">
        <SelectField
          control={form.control}
          name="type"
          label={t("points.fields.type")}
          required
          disabled={locked}
          options={POINT_TYPES.map((value) => ({ value, label: t(`points.types.${value}`) }))}
        />
        <NumberField control={form.control} name="ratedPower" label={t("points.fields.ratedPower")} required disabled={locked} decimals={2} suffix="kW" />
        <NumberField
          control={form.control}
          name="connectorCount"
          label={t("points.fields.connectorCount")}
          hint={t("points.hints.connectorCount")}
          required
          disabled={locked}
          decimals={0}
          maxLength={2}
        />
      </FormSection>
      <Card>
        <CardHeader>
          <CardTitle>{t("points.sections.connectors")}</CardTitle>
          <CardDescription>{t("points.hints.connectors")}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {connectors.fields.map((field, index) => (
            <fieldset key={field.id} className="grid gap-3 rounded-lg border p-4 sm:grid-cols-2 lg:grid-cols-[7rem_1fr_1.4fr_1fr_1fr]">
              <legend className="sr-only">{t("points.connectorNo", { no: index + 1 })}</legend>
              <div className="flex items-center gap-2 self-center text-sm font-semibold" aria-hidden>
                <span className="flex size-8 items-center justify-center rounded-full bg-primary/10 text-primary tabular-nums">{index + 1}</span>
                {t("points.connector")}
              </div>
              <TextField control={form.control} name={`connectors.${index}.name`} label={t("points.fields.connectorName")} maxLength={64} />
              <SelectField
                control={form.control}
                name={`connectors.${index}.standard`}
                label={t("points.fields.standard")}
                required
                disabled={locked}
                options={standards.map((value) => ({ value, label: <StandardLabel standard={value} size={24} />, disabled: !standardFits(type, value) }))}
              />
              <NumberField control={form.control} name={`connectors.${index}.power`} label={t("points.fields.power")} required disabled={locked} decimals={2} suffix="kW" />
              <SelectField
                control={form.control}
                name={`connectors.${index}.chargeSpeed`}
                label={t("points.fields.chargeSpeed")}
                required
                disabled={locked}
                options={CHARGE_SPEEDS.map((value) => ({ value, label: t(`points.chargeSpeeds.${value}`) }))}
              />
            </fieldset>
          ))}
          {listError && (
            <p role="alert" className="text-xs font-medium text-destructive">
              {t(listError)}
            </p>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("points.standardsTitle")}</CardTitle>
          <CardDescription>{t("points.hints.standards")}</CardDescription>
        </CardHeader>
        <CardContent>
          <StandardGallery fits={(standard) => standardFits(type, standard)} />
        </CardContent>
      </Card>
      <TemporaryPackageDialog
        temporary={temporary}
        onClose={() => setTemporary(null)}
        onAccepted={() => {
          setTemporary(null);
          save();
        }}
      />
    </FormPage>
  );
}
