import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { diffLines, type DiffLine } from "../../../domain/log-diff";
import { FactsCard } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { HeaderLink } from "~/components/page-actions";
import { cn } from "~/lib/cn";
import { loadOperationLog } from "./operation-log.server";

/** One operation-log row: who, what and where, old against new data, request and response. */
export function loader(args: LoaderFunctionArgs) {
  return loadOperationLog(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => `#${data.id}` };

const tone: Record<DiffLine["change"], string> = {
  added: "bg-primary/10",
  removed: "bg-destructive/10",
  changed: "bg-amber-500/10",
  same: "",
};

export default function OperationLogDetail() {
  const log = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const lines = diffLines(log.oldData, log.newData);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={`${t("content.log.detailTitle")} #${log.id}`}
        description={t("content.log.detailDescription")}
        actions={
          <HeaderLink to="/carrierSystem/operationLog" label={t("common.back")} variant="outline" />
        }
      />
      <FactsCard
        items={[
          [t("content.log.time"), dateTime(log.createdAt)],
          [t("content.log.account"), log.account ?? "—"],
          [t("content.log.operationType"), t(`content.log.types.${log.operationType}`)],
          [t("content.log.module"), log.module],
          [t("content.log.tableName"), <span className="font-mono">{log.tableName}</span>],
          [t("content.log.ip"), log.ip ?? "—"],
          [t("content.log.url"), <span className="break-all font-mono text-xs">{log.url ?? "—"}</span>],
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("content.log.changes")}</CardTitle>
        </CardHeader>
        <CardContent>
          {lines.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("content.log.noChanges")}</p>
          ) : (
            <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("content.log.changes")}>
              <table className="w-full text-left text-sm">
                <thead>
                  <tr className="border-b text-xs uppercase tracking-wide text-muted-foreground">
                    <th scope="col" className="py-2 pr-4 font-medium">{t("content.log.field")}</th>
                    <th scope="col" className="py-2 pr-4 font-medium">{t("content.log.before")}</th>
                    <th scope="col" className="py-2 pr-4 font-medium">{t("content.log.after")}</th>
                  </tr>
                </thead>
                <tbody>
                  {lines.map((line) => (
                    <tr key={line.field} className={cn("border-b align-top", tone[line.change])}>
                      <th scope="row" className="py-2 pr-4 font-mono text-xs font-medium">
                        {line.field}
                        {line.change !== "same" && <span className="ml-2 font-sans text-[11px] text-muted-foreground">{t(`content.log.change.${line.change}`)}</span>}
                      </th>
                      <td className={cn("break-all py-2 pr-4 font-mono text-xs", line.change === "changed" && "line-through decoration-destructive/60")}>{line.before ?? "—"}</td>
                      <td className="break-all py-2 pr-4 font-mono text-xs">{line.after ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <JsonCard title={t("content.log.requestBody")} value={log.requestBody} />
        <JsonCard title={t("content.log.response")} value={log.responseData} />
      </div>
    </div>
  );
}

function JsonCard({ title, value }: { title: string; value: unknown }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {value === null ? (
          <p className="text-sm text-muted-foreground">{t("content.log.none")}</p>
        ) : (
          <pre tabIndex={0} aria-label={title} className="max-h-96 overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap break-all">
            {typeof value === "string" ? value : JSON.stringify(value, null, 2)}
          </pre>
        )}
      </CardContent>
    </Card>
  );
}
