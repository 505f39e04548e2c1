import { Eye, Info, LoaderCircle, ScrollText, Send, WifiOff } from "lucide-react";
import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useRouteLoaderData } from "react-router";
import { SERVER_ACTIONS, type ServerAction } from "../../../domain/ocpp/actions";
import { SERVER_ACTIONS_201, type ServerAction201 } from "../../../domain/ocpp/v201/actions";
import type { ConnectedVersion } from "../../../domain/schemas/equipment";
import { entryForPath, mayOperateChargers } from "../../../tenants/permissions";
import { useFormat } from "~/components/format";
import { formPathOf, initialDraft, issuesByField, payloadOf, type Draft, type DraftErrors, type FieldPath } from "~/components/schema-form/field-model";
import { SchemaFields } from "~/components/schema-form/schema-form";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { ApiError, useApi } from "~/lib/api";
import type { loader as layoutLoader } from "~/routes/console/layout";
import type { RequestForm } from "./request-schemas";

export type CommandAction = ServerAction | ServerAction201;

/** The actions the central system may send a point of each protocol (OCPP 1.6 §5; OCPP 2.0.1 Part 2, CSMS → CS). */
export const ACTIONS_OF: Record<ConnectedVersion, readonly CommandAction[]> = { "1.6": SERVER_ACTIONS, "2.0.1": SERVER_ACTIONS_201 };

/**
 * Whether the signed-in user may send chargers commands (docs/rules/access.md "Watching is not
 * operating"): the layout's menu, the same tree the API's verbs check.
 */
export function useMayOperateChargers() {
  const shell = useRouteLoaderData<typeof layoutLoader>("routes/console/layout");
  return mayOperateChargers(shell?.menu ?? []);
}

/** Whether the signed-in user's menu opens `path` (a link to a page the route guard would refuse is left out). */
export function useMenuOpens(path: string) {
  const shell = useRouteLoaderData<typeof layoutLoader>("routes/console/layout");
  return entryForPath(shell?.menu ?? [], path) !== undefined;
}

/** What the last send gave: the request beside the charger's answer, or why there is none. */
interface Outcome {
  action: CommandAction;
  request: unknown;
  at: number;
  kind: "answered" | "refused" | "failed";
  /** The charger's reply (answered or refused), or a CALLERROR's code and description. */
  answer?: unknown;
  message?: string;
}

export interface PointOperationsProps {
  pointId: number;
  /** The protocol whose actions are offered (docs/rules/ocpp.md "Two protocols"). */
  protocol: ConnectedVersion;
  /** True when the protocol is a guess: an AUTO point not connected speaks neither yet. */
  assumed?: boolean;
  online: boolean;
  /** Only these actions, in this order (the station panel's few); every action of the protocol otherwise. */
  actions?: readonly CommandAction[];
  initialAction?: CommandAction;
  /** Where the point's OCPP log shows the call, when the user may open it. */
  logHref?: string;
}

/**
 * Any action the central system may send a point, as a form built from the action's request
 * schema, sent through `POST /station-service/point/{id}/command`, with the answer shown beside
 * the request (docs/rules/equipment.md "Point pages"). A user who may watch the point but not
 * operate it sees the form greyed and cannot send.
 */
export function PointOperations({ pointId, protocol, assumed, online, actions, initialAction, logHref }: PointOperationsProps) {
  const { t } = useTranslation();
  const api = useApi();
  const idPrefix = useId();
  const mayOperate = useMayOperateChargers();
  const offered = actions ?? ACTIONS_OF[protocol];
  const [action, setAction] = useState<CommandAction>(initialAction && offered.includes(initialAction) ? initialAction : offered[0]);
  const [schemas, setSchemas] = useState<typeof import("./request-schemas") | null>(null);
  const [draft, setDraft] = useState<Draft>(undefined);
  const [errors, setErrors] = useState<Record<FieldPath, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    let current = true;
    void import("./request-schemas").then((module) => current && setSchemas(module));
    return () => {
      current = false;
    };
  }, []);

  const form: RequestForm | undefined = schemas?.requestFormOf(protocol, action);
  // A new action, or the schemas just loaded: a fresh form of that action.
  const [formOf, setFormOf] = useState<string | null>(null);
  const formKey = form ? `${protocol}:${action}` : null;
  if (formKey !== formOf) {
    setFormOf(formKey);
    setDraft(form ? initialDraft(form.model) : undefined);
    setErrors({});
    setFormError(null);
  }

  const translated = (found: DraftErrors) => Object.fromEntries(Object.entries(found).map(([path, e]) => [path, t(e.key, e.params ?? {})]));
  const rootError = errors[""];
  const locked = !mayOperate;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form || locked) return;
    const read = payloadOf(form.model, draft, instantOfLocal);
    const found = translated({ ...issuesByField(form.check(read.value)), ...read.errors });
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    setSending(true);
    const request = read.value;
    // An action's form is an object at its top, as the command's payload is (docs/rules/ocpp.md "Remote commands").
    if (typeof request !== "object" || request === null || Array.isArray(request)) return;
    const at = Date.now();
    try {
      const answer = await api.post("/station-service/point/{id}/command", { params: { id: pointId }, body: { action, payload: Object.fromEntries(Object.entries(request)) } });
      setOutcome({ action, request, at, kind: "answered", answer });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setOutcome(outcomeOfError(action, request, at, error));
      // The server's field messages come back into the fields they name (docs/rules/console.md "Forms").
      const fromServer: Record<FieldPath, string> = {};
      for (const [key, message] of Object.entries(error.fields)) {
        if (key.startsWith("payload.")) fromServer[formPathOf(key.slice("payload.".length))] = message;
        else setFormError(message);
      }
      if (Object.keys(fromServer).length > 0) setErrors(fromServer);
    } finally {
      setSending(false);
    }
  };

  const formId = `${idPrefix}-form`;
  return (
    <div className="grid gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" data-testid="point-operations" data-protocol={protocol}>
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{t("pointOperations.request")}</CardTitle>
          <CardDescription>{t(protocol === "2.0.1" ? "pointOperations.intro201" : "pointOperations.intro16", { number: offered.length })}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {assumed && (
            <Note icon={<Info className="size-4 shrink-0 text-info" aria-hidden />}>{t("pointOperations.assumed16")}</Note>
          )}
          {!online && <Note icon={<WifiOff className="size-4 shrink-0 text-info" aria-hidden />}>{t("errors.pointOffline")}</Note>}
          {locked && <Note icon={<Eye className="size-4 shrink-0 text-info" aria-hidden />}>{t("pointOperations.watchOnly")}</Note>}
          <div className="grid gap-2">
            <Label htmlFor={`${idPrefix}-action`}>{t("pointOperations.action")}</Label>
            <NativeSelect id={`${idPrefix}-action`} value={action} onChange={(e) => setAction(e.target.value as CommandAction)} className="md:w-80">
              {offered.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </NativeSelect>
            <p className="text-sm text-muted-foreground" data-testid="action-description">
              {t(`pointOperations.actions.${action}`)}
            </p>
          </div>
          <form id={formId} onSubmit={(e) => void submit(e)} noValidate aria-busy={sending}>
            {/* A watching role may look through the actions, but sees each form greyed: nothing in it can be changed or sent. */}
            <fieldset disabled={locked} className={locked ? "flex flex-col gap-4 opacity-60" : "flex flex-col gap-4"}>
              {form && form.model.kind === "object" ? (
                form.model.fields.length > 0 ? (
                  <SchemaFields key={formKey} model={form.model} draft={draft} onChange={setDraft} errors={errors} idPrefix={idPrefix} disabled={locked} />
                ) : (
                  <p className="text-sm text-muted-foreground">{t("pointOperations.noFields")}</p>
                )
              ) : (
                <p className="flex items-center gap-2 text-sm text-muted-foreground">
                  <LoaderCircle className="size-4 animate-spin" aria-hidden />
                  {t("pointOperations.loading")}
                </p>
              )}
              {(rootError || formError) && (
                <p role="alert" className="text-sm font-medium text-destructive">
                  {formError ?? rootError}
                </p>
              )}
              <div className="flex flex-wrap items-center gap-3">
                <Button type="submit" disabled={locked || !online || sending || !form}>
                  {sending ? <LoaderCircle className="animate-spin" aria-hidden /> : <Send aria-hidden />}
                  {t("pointOperations.send")}
                </Button>
                {logHref && (
                  <Link to={logHref} className="inline-flex items-center gap-1.5 text-sm text-primary underline-offset-4 hover:underline">
                    <ScrollText className="size-4" aria-hidden />
                    {t("pointOperations.seeLog")}
                  </Link>
                )}
              </div>
            </fieldset>
          </form>
        </CardContent>
      </Card>
      <OutcomeCard outcome={outcome} logHref={logHref} />
    </div>
  );
}

/**
 * A `datetime-local` value (the browser's zone) as an ISO instant; what does not read as a time
 * goes as typed, for the schema's check to name.
 */
function instantOfLocal(local: string) {
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? local : time.toISOString();
}

/** How a refused or failed send is shown: a charger's refusal with its reply, a CALLERROR, or the server's reason. */
function outcomeOfError(action: CommandAction, request: unknown, at: number, error: ApiError): Outcome {
  const data = error.data as Record<string, unknown> | null;
  // 409 with the charger's reply: it answered, and said no (docs/rules/ocpp.md "Remote commands").
  if (error.status === 409 && data && typeof data === "object" && !("fields" in data)) {
    const isCallError = "code" in data && "description" in data;
    return { action, request, at, kind: isCallError ? "failed" : "refused", answer: data, message: error.message };
  }
  return { action, request, at, kind: "failed", message: error.message };
}

function Note({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p role="note" className="flex items-center gap-2 rounded-lg border border-info/30 bg-info/10 px-4 py-3 text-sm">
      {icon}
      {children}
    </p>
  );
}

const KIND_VARIANT = { answered: "success", refused: "warning", failed: "destructive" } as const;

/** The last send: its request and the answer, laid out as JSON side by side. */
function OutcomeCard({ outcome, logHref }: { outcome: Outcome | null; logHref?: string }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  return (
    <Card className="min-w-0" data-testid="operation-outcome" aria-live="polite">
      <CardHeader>
        <CardTitle>{t("pointOperations.answer")}</CardTitle>
        <CardDescription>
          {outcome ? (
            <span className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-foreground">{outcome.action}</span>
              <Badge variant={KIND_VARIANT[outcome.kind]} data-testid="outcome-kind" data-kind={outcome.kind}>
                {t(`pointOperations.outcome.${outcome.kind}`)}
              </Badge>
              <span className="tabular-nums">{dateTime(new Date(outcome.at).toISOString())}</span>
            </span>
          ) : (
            t("pointOperations.nothingSent")
          )}
        </CardDescription>
      </CardHeader>
      {outcome && (
        <CardContent className="flex flex-col gap-3">
          {outcome.message && <p className="text-sm text-destructive">{outcome.message}</p>}
          <JsonBlock label={t("pointOperations.sentPayload")} value={outcome.request ?? {}} testId="outcome-request" />
          {outcome.answer !== undefined && <JsonBlock label={t("pointOperations.reply")} value={outcome.answer} testId="outcome-answer" />}
          {logHref && <p className="text-xs text-muted-foreground">{t("pointOperations.inLog")}</p>}
        </CardContent>
      )}
    </Card>
  );
}

function JsonBlock({ label, value, testId }: { label: string; value: unknown; testId: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-1.5">
      <h4 id={id} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
        {label}
      </h4>
      <pre tabIndex={0} className="max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap" data-testid={testId}>
        {JSON.stringify(value, null, 2)}
      </pre>
    </section>
  );
}
