import { Download, RefreshCw, ShieldPlus, Trash2, Upload } from "lucide-react";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { CERTIFICATE_PEM_MAX } from "../../../../domain/ocpp/certificates";
import { HashAlgorithm } from "../../../../domain/ocpp/schemas";
import { FormField } from "~/components/form/form-field";
import { useFormat } from "~/components/format";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { RowsTable } from "~/components/rows-table";
import { TableCell, TableHead, TableRow } from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toast";
import { ApiError, useApi, useBusyCall, type ApiResult } from "~/lib/api";
import { OfflineNote } from "./configuration-tab";

type CertificateType = "CentralSystemRootCertificate" | "ManufacturerRootCertificate";
const TYPES: readonly CertificateType[] = ["CentralSystemRootCertificate", "ManufacturerRootCertificate"];

type Root = ApiResult<"get", "/station-service/certificate">[number];
type PointCertificates = ApiResult<"get", "/station-service/point/{id}/certificates">;

/**
 * The Certificates tab (docs/rules/ocpp.md "Security extension"): the root certificates the charger
 * said it holds (GetInstalledCertificateIds, asked on demand) named by the operator's stored roots,
 * installing one of those roots (InstallCertificate), removing one the charger holds
 * (DeleteCertificate), uploading a root, and the signing requests the charger sent.
 */
export function CertificatesTab({ pointId, online }: { pointId: number; online: boolean }) {
  const { t } = useTranslation();
  const api = useApi();
  const { dateTime } = useFormat();
  const confirm = useConfirm();
  const [shown, setShown] = useState<PointCertificates>();
  const [roots, setRoots] = useState<Root[]>([]);
  const [busy, whileBusy] = useBusyCall();

  const load = useCallback(async () => {
    const [point, stored] = await Promise.all([
      api.get("/station-service/point/{id}/certificates", { params: { id: pointId } }),
      api.get("/station-service/certificate"),
    ]);
    setShown(point);
    setRoots(stored);
  }, [api, pointId]);

  useEffect(() => {
    load().catch(() => setShown({ installed: [], askedAt: null, signingRequests: [] }));
  }, [load]);

  const run = (work: () => Promise<unknown>, done: string) =>
    whileBusy(async () => {
      await work();
      toast.success(t(done));
      await load();
    });

  const ask = () => run(() => api.put("/station-service/point/{id}/certificates", { params: { id: pointId } }), "points.certificates.asked");
  const install = (root: Root) => run(() => api.post("/station-service/point/{id}/certificates/install", { params: { id: pointId }, body: { fingerprint: root.fingerprint } }), "points.certificates.installed");
  const remove = async (certificate: PointCertificates["installed"][number]) => {
    const ok = await confirm({
      message: t("points.certificates.confirmDelete", { name: certificate.name ?? certificate.serialNumber }),
      destructive: true,
      confirmLabel: t("common.delete"),
    });
    if (!ok) return;
    const { issuerNameHash, issuerKeyHash, serialNumber } = certificate;
    // Stored as the charger reported it, checked then against the same enum (docs/rules/ocpp.md "Security extension").
    const hashAlgorithm = HashAlgorithm.parse(certificate.hashAlgorithm);
    await run(
      () => api.post("/station-service/point/{id}/certificates/delete", { params: { id: pointId }, body: { certificateHashData: { hashAlgorithm, issuerNameHash, issuerKeyHash, serialNumber } } }),
      "points.certificates.deleted",
    );
  };

  return (
    <div className="flex flex-col gap-4">
      {!online && <OfflineNote />}
      <Card>
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div className="flex flex-col gap-1.5">
            <CardTitle>{t("points.certificates.installedTitle")}</CardTitle>
            <CardDescription>
              {shown?.askedAt ? t("points.certificates.askedAt", { at: dateTime(shown.askedAt) }) : t("points.certificates.neverAsked")}
            </CardDescription>
          </div>
          <Button variant="outline" size="sm" onClick={() => void ask()} disabled={!online || busy}>
            <RefreshCw aria-hidden />
            {t("points.certificates.ask")}
          </Button>
        </CardHeader>
        <CardContent>
          <RowsTable
            label={t("points.certificates.installedTitle")}
            empty={shown && <p className="text-sm text-muted-foreground">{t("points.certificates.noneInstalled")}</p>}
            head={
              <>
                <TableHead>{t("points.certificates.name")}</TableHead>
                <TableHead>{t("points.certificates.type")}</TableHead>
                <TableHead>{t("points.certificates.serialNumber")}</TableHead>
                <TableHead className="w-0" />
              </>
            }
            rows={(shown?.installed ?? []).map((c) => (
              <TableRow key={`${c.certificateType}:${c.serialNumber}:${c.issuerKeyHash}`}>
                <TableCell>{c.name ?? <Badge variant="muted">{t("points.certificates.unknown")}</Badge>}</TableCell>
                <TableCell>{t(`points.certificates.types.${c.certificateType}`)}</TableCell>
                <TableCell className="font-mono text-xs">{c.serialNumber}</TableCell>
                <TableCell>
                  <Button variant="ghost" size="sm" onClick={() => void remove(c)} disabled={!online || busy} aria-label={t("points.certificates.delete")}>
                    <Trash2 aria-hidden />
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t("points.certificates.rootsTitle")}</CardTitle>
          <CardDescription>{t("points.certificates.rootsDescription")}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <RowsTable
            label={t("points.certificates.rootsTitle")}
            empty={<p className="text-sm text-muted-foreground">{t("points.certificates.noRoots")}</p>}
            head={
              <>
                <TableHead>{t("points.certificates.name")}</TableHead>
                <TableHead>{t("points.certificates.type")}</TableHead>
                <TableHead>{t("points.certificates.notAfter")}</TableHead>
                <TableHead className="w-0" />
              </>
            }
            rows={roots.map((root) => (
              <TableRow key={root.fingerprint}>
                <TableCell>{root.name}</TableCell>
                <TableCell>{t(`points.certificates.types.${root.certificateType}`)}</TableCell>
                <TableCell>{root.notAfter ? dateTime(root.notAfter) : "—"}</TableCell>
                <TableCell>
                  <Button variant="outline" size="sm" onClick={() => void install(root)} disabled={!online || busy}>
                    <ShieldPlus aria-hidden />
                    {t("points.certificates.install")}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          />
          <RootUploadForm onUploaded={() => void load()} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t("points.certificates.requestsTitle")}</CardTitle>
          <CardDescription>{t("points.certificates.requestsDescription")}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {(shown?.signingRequests ?? []).length === 0 && <p className="text-sm text-muted-foreground">{t("points.certificates.noRequests")}</p>}
          {(shown?.signingRequests ?? []).map((request) => (
            <details key={request.receivedAt} className="rounded-md border px-3 py-2">
              <summary className="cursor-pointer text-sm">{t("points.certificates.receivedAt", { at: dateTime(request.receivedAt) })}</summary>
              <pre className="mt-2 overflow-x-auto font-mono text-xs">{request.csr}</pre>
              <Button asChild variant="ghost" size="sm">
                <a href={`data:application/pkcs10;charset=utf-8,${encodeURIComponent(request.csr)}`} download="charger.csr">
                  <Download aria-hidden />
                  {t("points.certificates.download")}
                </a>
              </Button>
            </details>
          ))}
        </CardContent>
      </Card>
    </div>
  );
}

/** Uploading a root: its type, an optional label, and the PEM pasted or read from a file. */
function RootUploadForm({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [values, setValues] = useState<{ certificateType: CertificateType; name: string; pem: string }>({ certificateType: TYPES[0], name: "", pem: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > CERTIFICATE_PEM_MAX) return setErrors({ pem: t("validation.certificatePem") });
    setValues((v) => ({ ...v, pem: "" }));
    const pem = await file.text();
    setValues((v) => ({ ...v, pem }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!values.pem.trim()) return setErrors({ pem: t("validation.certificatePem") });
    setErrors({});
    setSending(true);
    try {
      await api.post("/station-service/certificate", { body: { certificateType: values.certificateType, pem: values.pem, ...(values.name.trim() && { name: values.name.trim() }) } });
      toast.success(t("points.certificates.uploaded"));
      setValues({ certificateType: values.certificateType, name: "", pem: "" });
      onUploaded();
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fields);
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-3 md:grid-cols-2">
      <FormField id="root-type" label={t("points.certificates.type")} required>
        <NativeSelect id="root-type" value={values.certificateType} onChange={(e) => setValues({ ...values, certificateType: e.target.value as CertificateType })}>
          {TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`points.certificates.types.${type}`)}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField id="root-name" label={t("points.certificates.label")} hint={t("points.certificates.labelHint")}>
        <Input id="root-name" value={values.name} maxLength={100} onChange={(e) => setValues({ ...values, name: e.target.value })} />
      </FormField>
      <FormField id="root-pem" label={t("points.certificates.pem")} required error={errors.pem} hint={t("points.certificates.pemHint")} className="md:col-span-2">
        <Textarea
          id="root-pem"
          rows={6}
          className="font-mono text-xs"
          value={values.pem}
          maxLength={CERTIFICATE_PEM_MAX}
          placeholder="-----BEGIN CERTIFICATE-----"
          onChange={(e) => setValues({ ...values, pem: e.target.value })}
          aria-invalid={errors.pem ? true : undefined}
        />
      </FormField>
      <div className="flex flex-wrap items-center gap-3 md:col-span-2">
        <Input type="file" accept=".pem,.crt,.cer" aria-label={t("points.certificates.file")} className="max-w-xs" onChange={(e) => void readFile(e.target.files?.[0])} />
        <Button type="submit" disabled={sending}>
          <Upload aria-hidden />
          {t("points.certificates.upload")}
        </Button>
      </div>
    </form>
  );
}
