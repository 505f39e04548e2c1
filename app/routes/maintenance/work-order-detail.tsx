import { ClipboardCheck, Pencil, Wrench } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { AUDIT_RESULTS } from "../../../domain/schemas/maintenance";
import { FactsCard } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PageHeader } from "~/components/shell/page-header";
import { TextDialog } from "~/components/text-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { HeaderLink } from "~/components/page-actions";
import { loadWorkOrder, workOrderAction } from "./maintain.server";
import { WorkOrderStatusBadge } from "./parts";

/**
 * One work order with its history, and its next step: process it (to do), audit it (processed),
 * or change its cause, remarks and handler while it is to do (docs/rules/maintenance.md "Work orders").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadWorkOrder(args);
}

export function action(args: ActionFunctionArgs) {
  return workOrderAction(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => `#${data.order.id}` };

type Step = "process" | "audit" | "edit" | null;

export default function WorkOrderDetail() {
  const { order, maintainer, handlers } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const [step, setStep] = useState<Step>(null);
  const [result, setResult] = useState<(typeof AUDIT_RESULTS)[number]>("PASS");
  const [handler, setHandler] = useState(order.maintainerId ? String(order.maintainerId) : "");
  const when = (iso: string | null) => (iso ? dateTime(iso) : "—");
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("maintenance.ui.orderTitle", { id: order.id })}
        description={t(`monitoring.faultTypes.${order.faultCode}`, { defaultValue: order.faultCode })}
        actions={
          <>
            <HeaderLink to="/operationMaintenance/maintain" label={t("common.back")} variant="outline" />
            {order.status === "ALREADY" && (
              <>
                <Button variant="outline" onClick={() => setStep("edit")}>
                  <Pencil aria-hidden />
                  {t("common.edit")}
                </Button>
                <Button onClick={() => setStep("process")}>
                  <Wrench aria-hidden />
                  {t("maintenance.ui.process")}
                </Button>
              </>
            )}
            {order.status === "PASS" && !maintainer && (
              <Button onClick={() => setStep("audit")}>
                <ClipboardCheck aria-hidden />
                {t("maintenance.ui.audit")}
              </Button>
            )}
          </>
        }
      />
      <FactsCard
        items={[
          [t("maintenance.ui.status"), <WorkOrderStatusBadge key="s" status={order.status} />],
          [t("maintenance.ui.serialNumber"), <span key="sn" className="font-mono text-xs">{order.serialNumber}</span>],
          [t("maintenance.ui.abnormalTime"), dateTime(order.abnormalTime)],
          [t("maintenance.ui.source"), t(`maintenance.ui.sources.${order.source}`)],
          [t("maintenance.ui.handler"), order.handler ? `${order.handler} (${order.handlerAccount})` : t("maintenance.ui.unassigned")],
          [t("maintenance.ui.handlerEmail"), order.handlerEmail ?? "—"],
          [t("maintenance.ui.cause"), order.cause ?? "—"],
          [t("maintenance.ui.remarks"), order.remarks ?? "—"],
          [t("maintenance.ui.handlingProcess"), order.handlingProcess ?? "—"],
          [t("maintenance.ui.opinion"), order.opinion ?? "—"],
          [t("maintenance.ui.processed"), order.processedBy ? `${order.processedBy} · ${when(order.processedAt)}` : "—"],
          [t("maintenance.ui.auditOpinion"), order.auditResult ? `${t(`maintenance.ui.results.${order.auditResult}`)} · ${order.auditOpinion ?? ""}` : "—"],
          [t("maintenance.ui.audited"), order.auditedBy ? `${order.auditedBy} · ${when(order.auditedAt)}` : "—"],
          [t("maintenance.ui.createdBy"), `${order.createdBy} · ${dateTime(order.createdAt)}`],
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("maintenance.ui.history")}</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="flex flex-col gap-3">
            {order.history.map((h, i) => (
              <li key={i} className="flex flex-col gap-0.5 border-l-2 border-primary/40 pl-3 text-sm">
                <span className="font-medium">{t(`maintenance.ui.actions.${h.action}`)}</span>
                <span className="text-xs text-muted-foreground">
                  {h.account} · {dateTime(h.at)}
                </span>
                {h.note && <span className="whitespace-pre-wrap break-words">{h.note}</span>}
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
      <TextDialog
        open={step === "process"}
        onClose={() => setStep(null)}
        title={t("maintenance.ui.process")}
        description={t("maintenance.ui.processText")}
        texts={[
          { name: "handlingProcess", label: t("maintenance.ui.handlingProcess"), requiredMessage: t("maintenance.validation.handlingProcessRequired"), maxLength: 2000 },
          { name: "opinion", label: t("maintenance.ui.opinion"), requiredMessage: t("maintenance.validation.opinionRequired"), maxLength: 2000 },
        ]}
        values={{ intent: "process" }}
        submitLabel={t("maintenance.ui.process")}
        icon={Wrench}
        successMessage={t("maintenance.ui.processedToast")}
        idPrefix="process"
      />
      <TextDialog
        open={step === "audit"}
        onClose={() => setStep(null)}
        title={t("maintenance.ui.audit")}
        description={t("maintenance.ui.auditText")}
        texts={[{ name: "opinion", label: t("maintenance.ui.auditOpinion"), requiredMessage: t("maintenance.validation.opinionRequired"), maxLength: 2000 }]}
        values={{ intent: "audit", result }}
        submitLabel={t("maintenance.ui.audit")}
        icon={ClipboardCheck}
        successMessage={t("maintenance.ui.auditedToast")}
        idPrefix="audit"
      >
        <div className="flex flex-col gap-2">
          <Label htmlFor="audit-result">{t("maintenance.ui.auditResult")}</Label>
          <NativeSelect id="audit-result" value={result} onChange={(e) => setResult(e.target.value as typeof result)}>
            {AUDIT_RESULTS.map((r) => (
              <option key={r} value={r}>
                {t(`maintenance.ui.results.${r}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
      </TextDialog>
      <TextDialog
        open={step === "edit"}
        onClose={() => setStep(null)}
        title={t("common.edit")}
        texts={[{ name: "remarks", label: t("maintenance.ui.remarks"), requiredMessage: t("maintenance.ui.remarksRequired"), maxLength: 500, initial: order.remarks ?? "" }]}
        values={{ intent: "edit", cause: order.cause ?? "", maintainerId: maintainer ? (order.maintainerId ?? "") : handler }}
        submitLabel={t("common.save")}
        icon={Pencil}
        successMessage={t("maintenance.ui.saved")}
        idPrefix="edit"
      >
        {!maintainer && (
          <div className="flex flex-col gap-2">
            <Label htmlFor="edit-handler">{t("maintenance.ui.handler")}</Label>
            <NativeSelect id="edit-handler" value={handler} onChange={(e) => setHandler(e.target.value)}>
              <option value="">{t("maintenance.ui.unassigned")}</option>
              {handlers.map((h) => (
                <option key={h.id} value={h.id}>
                  {h.name} ({h.username})
                </option>
              ))}
            </NativeSelect>
          </div>
        )}
      </TextDialog>
    </div>
  );
}
