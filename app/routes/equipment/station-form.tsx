import { zodResolver } from "@hookform/resolvers/zod";
import { Info, LoaderCircle, LocateFixed, Lock } from "lucide-react";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { amountInput, stationForm, type StationFormOutput, type StationFormValues } from "../../../domain/schemas/stations";
import { AmountField, NumberField, TextareaField, TextField } from "~/components/form/fields";
import { TimeZoneField } from "~/components/form/time-zone-field";
import { useFormProblems } from "~/components/form/form-problems";
import { useMapView } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { useApi } from "~/lib/api";
import { MapPicker } from "./map-picker";
import { ChoiceField, LogoField } from "./station-fields";
import { loadStationForm, saveStation } from "./station-form.server";

/**
 * Add a location, or edit one (`?id=`): every field of a station (docs/rules/equipment.md
 * "Stations"), the address located through the operator's map provider or placed on the
 * coordinate picker (docs/rules/equipment.md "Station coordinates"), and the logo uploaded and
 * checked on the server (docs/rules/input.md "Uploads").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadStationForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveStation(args);
}

export default function StationForm() {
  const { station, others, decimals, operatorTimeZone } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const api = useApi();
  const save = useFetcher<typeof action>();
  const upload = useFetcher<typeof action>();
  const [locating, setLocating] = useState(false);
  const [focusSignal, setFocusSignal] = useState(0);
  const [logoUrl, setLogoUrl] = useState<string | null>(station?.logoUrl ?? null);
  const iconUpload = useFetcher<typeof action>();
  const [mapIconUrl, setMapIconUrl] = useState<string | null>(station?.mapIconUrl ?? null);
  // An enabled station keeps what defines it as equipment (LOCKED_WHEN_ENABLED, docs/rules/equipment.md
  // "Enabled equipment is locked"); those inputs are read-only rather than disabled, so their values
  // still travel with the form.
  const locked = station?.status === "VALID";
  const schema = useMemo(() => stationForm(decimals), [decimals]);
  const problems = useFormProblems();
  // Without a geocoder the address is kept as typed (docs/rules/equipment.md "Station coordinates").
  const geocoder = useMapView()?.geocoder ?? false;
  const form = useForm<StationFormValues, unknown, StationFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: station?.name ?? "",
      address: station?.address ?? "",
      lat: station?.lat ?? "",
      lng: station?.lng ?? "",
      parkingFee: station?.parkingFee ?? false,
      parkingFeeAmount: amountInput(station?.parkingFeeAmount ?? null, decimals),
      servicePhone: station?.servicePhone ?? "",
      maintainer: station?.maintainer ?? "",
      rank: station ? String(station.rank) : "0",
      price: station?.price ?? "",
      businessHours: station?.businessHours ?? (station ? "" : "00:00-24:00"),
      description: station?.description ?? "",
      logoKey: station?.logoKey ?? "",
      mapIconKey: station?.mapIconKey ?? "",
      powerLimit: station?.powerLimit === null || station?.powerLimit === undefined ? "" : String(station.powerLimit),
      timeZone: station?.timeZone ?? "",
    },
  });

  const listUrl = "/equipmentManagement/station";
  useActionOutcome<{ intent: "save" | "upload"; id: number | null; key: string | null; url: string | null }>(
    save,
    (data) => {
      toast.success(t("stations.saved"));
      navigate(`/equipmentManagement/station/stationDetail/${data.id}`);
    },
    (name, message) => {
      form.setError(name as keyof StationFormValues, { message });
      problems.show();
    },
  );
  useActionOutcome<{ key: string | null; url: string | null }>(upload, (data) => {
    form.setValue("logoKey", data.key ?? "", { shouldDirty: true });
    form.clearErrors("logoKey");
    setLogoUrl(data.url);
    toast.success(t("stations.logo.uploaded"));
  });
  useActionOutcome<{ key: string | null; url: string | null }>(
    iconUpload,
    (data) => {
      form.setValue("mapIconKey", data.key ?? "", { shouldDirty: true });
      form.clearErrors("mapIconKey");
      setMapIconUrl(data.url);
      toast.success(t("stations.mapIcon.uploaded"));
    },
    (_name, message) => form.setError("mapIconKey", { message }),
  );

  const [lat, lng, parkingFee] = form.watch(["lat", "lng", "parkingFee"]);
  const submit = form.handleSubmit((values) => {
    problems.clear();
    save.submit(JSON.stringify(values), { method: "post", encType: "application/json", action: `${listUrl}/stationAdd${station ? `?id=${station.id}` : ""}` });
  }, problems.onInvalid);

  const locate = async () => {
    const address = String(form.getValues("address") ?? "").trim();
    if (!address) {
      form.setError("address", { message: "stations.validation.addressRequired" });
      return;
    }
    setLocating(true);
    try {
      const found = await api.get("/station-service/station/geocode", { query: { address } });
      form.setValue("lat", found.lat, { shouldDirty: true, shouldValidate: true });
      form.setValue("lng", found.lng, { shouldDirty: true, shouldValidate: true });
      setFocusSignal((n) => n + 1);
      toast.success(t("stations.map.located"));
    } catch {
      // useApi has shown the server's message ('the address did not resolve…').
    } finally {
      setLocating(false);
    }
  };

  const pick = (pickedLat: string, pickedLng: string) => {
    form.setValue("lat", pickedLat, { shouldDirty: true, shouldValidate: true });
    form.setValue("lng", pickedLng, { shouldDirty: true, shouldValidate: true });
  };

  const uploadLogo = (file: File) => {
    const data = new FormData();
    data.append("file", file);
    upload.submit(data, { method: "post", encType: "multipart/form-data", action: `${listUrl}/stationAdd${station ? `?id=${station.id}` : ""}` });
  };

  const uploadMapIcon = (file: File) => {
    const data = new FormData();
    data.append("file", file);
    iconUpload.submit(data, { method: "post", encType: "multipart/form-data", action: `${listUrl}/stationAdd?kind=mapIcon${station ? `&id=${station.id}` : ""}` });
  };

  return (
    <FormPage
      onSubmit={submit}
      title={station ? t("stations.edit") : t("stations.add")}
      cancelTo={station ? `${listUrl}/stationDetail/${station.id}` : listUrl}
      sending={save}
      formRef={problems.ref}
    >
      {problems.summary}
      <FormSection title={t("stations.sections.general")} columns="three" className="items-start">
        <TextField control={form.control} name="name" label={t("stations.fields.name")} required className="lg:col-span-2" />
        <NumberField control={form.control} name="rank" label={t("stations.fields.rank")} required hint={t("stations.hints.rank")} />
        <TextField control={form.control} name="servicePhone" label={t("stations.fields.servicePhone")} required type="tel" />
        <TextField control={form.control} name="maintainer" label={t("stations.fields.maintainer")} required />
        <TextField
          control={form.control}
          name="businessHours"
          label={t("stations.fields.businessHours")}
          required
          placeholder="00:00-24:00"
          hint={t("stations.hints.businessHours")}
        />
      </FormSection>

      <Card>
        <CardHeader>
          <CardTitle>{t("stations.sections.location")}</CardTitle>
          {locked && (
            <CardDescription className="flex items-center gap-2 text-warning">
              <Lock className="size-4" aria-hidden />
              {t("stations.lockedNotice")}
            </CardDescription>
          )}
        </CardHeader>
        <CardContent className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="grid content-start gap-4">
            <div className="flex items-end gap-2">
              <TextField
                control={form.control}
                name="address"
                label={t("stations.fields.address")}
                required
                readOnly={locked}
                className="flex-1"
                autoComplete="street-address"
              />
              {geocoder && (
                <Button type="button" variant="outline" onClick={locate} disabled={locating || locked}>
                  {locating ? <LoaderCircle className="animate-spin" aria-hidden /> : <LocateFixed aria-hidden />}
                  {t("stations.map.locate")}
                </Button>
              )}
            </div>
            {!geocoder && !locked && (
              <p className="-mt-2 flex items-start gap-2 text-xs text-muted-foreground" data-testid="no-geocoder">
                <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
                {t("stations.map.noGeocoder")}
              </p>
            )}
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <NumberField control={form.control} name="lat" label={t("stations.fields.lat")} decimals={7} allowNegative readOnly={locked} />
              <NumberField control={form.control} name="lng" label={t("stations.fields.lng")} decimals={7} allowNegative readOnly={locked} />
            </div>
            {!locked && geocoder && <p className="-mt-2 text-xs text-muted-foreground">{t("stations.hints.coordinates")}</p>}
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <TimeZoneField
                control={form.control}
                name="timeZone"
                label={t("stations.fields.timeZone")}
                placeholder={operatorTimeZone}
                hint={t("stations.hints.timeZone", { zone: operatorTimeZone })}
                readOnly={locked}
              />
              <NumberField control={form.control} name="powerLimit" label={t("stations.fields.powerLimit")} decimals={2} suffix="kW" readOnly={locked} />
            </div>
          </div>
          <MapPicker lat={String(lat ?? "")} lng={String(lng ?? "")} onPick={locked ? undefined : pick} others={others} focusSignal={focusSignal} />
        </CardContent>
      </Card>

      <FormSection title={t("stations.sections.parking")} columns="three" className="items-start">
        <ChoiceField
          control={form.control}
          name="parkingFee"
          label={t("stations.fields.parkingFee")}
          required
          options={[
            { value: false, label: t("stations.parking.free") },
            { value: true, label: t("stations.parking.paid") },
          ]}
        />
        <AmountField
          control={form.control}
          name="parkingFeeAmount"
          label={t("stations.fields.parkingFeeAmount")}
          required={parkingFee === true}
          disabled={parkingFee !== true}
          decimals={decimals}
        />
        <TextField control={form.control} name="price" label={t("stations.fields.price")} hint={t("stations.hints.price")} />
      </FormSection>

      <Card>
        <CardHeader>
          <CardTitle>{t("stations.sections.about")}</CardTitle>
        </CardHeader>
        <CardContent className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <TextareaField control={form.control} name="description" label={t("stations.fields.description")} required rows={5} />
          <LogoField
            control={form.control}
            name="logoKey"
            url={logoUrl}
            uploading={upload.state !== "idle"}
            onFile={uploadLogo}
            onRemove={() => {
              form.setValue("logoKey", "", { shouldDirty: true });
              setLogoUrl(null);
            }}
          />
          <LogoField
            control={form.control}
            name="mapIconKey"
            url={mapIconUrl}
            uploading={iconUpload.state !== "idle"}
            onFile={uploadMapIcon}
            onRemove={() => {
              form.setValue("mapIconKey", "", { shouldDirty: true });
              setMapIconUrl(null);
            }}
            texts="stations.mapIcon"
            label="stations.fields.mapIcon"
          />
        </CardContent>
      </Card>
    </FormPage>
  );
}
