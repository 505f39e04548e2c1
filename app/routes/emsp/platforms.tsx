import type { ColumnDef } from "@tanstack/react-table";
import { CloudDownload, KeyRound, Link2, Link2Off, Plus, Trash2, type LucideIcon } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { FilterSelect } from "~/components/data-table/filter-select";
import { FilterText } from "~/components/data-table/filter-text";
import { actionsColumn, useCommonRowActions, type RowAction } from "~/components/data-table/row-actions";
import { FilterError } from "~/components/data-table/time-range-filter";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { mayCall, PARTNER_ROLES } from "../../../domain/ocpi/roles";
import { toast } from "~/components/ui/toast";
import { loadPlatforms, platformAction } from "./emsp.server";
import { FormDialogFooter } from "~/components/form/dialog-footer";

/**
 * Partner platforms (docs/rules/ocpi.md "Console"): add one with its versions URL and token A,
 * register and unregister with a confirmation, or issue a token A for a partner that registers
 * with us. Registering needs the token and the versions URL first.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPlatforms(args);
}

export function action(args: ActionFunctionArgs) {
  return platformAction(args);
}

type Platform = Awaited<ReturnType<typeof loader>>["page"]["records"][number];
type Done = { intent: string; token: { token: string; versionsUrl: string } | null };

export default function PlatformsScreen() {
  const { page, identity, pulls, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { edit } = useCommonRowActions();
  const fetcher = useFetcher<typeof action>();
  const [editing, setEditing] = useState<Platform | "new" | null>(null);
  const [issued, setIssued] = useState<{ token: string; versionsUrl: string } | null>(null);
  const title = t("menu.emsp.platform");

  useActionOutcome<Done>(fetcher, (data) => {
    if (data.intent === "issueToken" && data.token) setIssued(data.token);
    else toast.success(t(`ocpi.platform.done.${data.intent}`));
  });

  // Each command asks first, with its own title and message naming the platform.
  const act = (intent: "register" | "unregister" | "issueToken" | "delete" | "pull", platform: Platform, icon: LucideIcon, label: string): RowAction => ({
    label,
    icon,
    destructive: intent === "delete" || intent === "unregister",
    onSelect: () => fetcher.submit({ intent, id: platform.id }, { method: "post" }),
    confirm: { title: t(`ocpi.platform.confirm.${intent}.title`), message: t(`ocpi.platform.confirm.${intent}.message`, { name: platform.name }) },
  });

  const columns: ColumnDef<Platform>[] = [
    { accessorKey: "name", header: t("ocpi.platform.name") },
    // The partner's role decides which of our modules it calls (docs/rules/ocpi.md "CPO role").
    { accessorKey: "role", header: t("ocpi.cpo.role.label"), meta: { width: 90, priority: 3 }, cell: ({ row }) => t(`ocpi.cpo.role.${row.original.role}`) },
    { accessorKey: "versionsUrl", header: t("ocpi.platform.versionsUrl"), meta: { priority: 3 }, cell: ({ row }) => <span className="break-all">{row.original.versionsUrl ?? "—"}</span> },
    {
      accessorKey: "registerStatus",
      header: t("ocpi.platform.registerStatus"),
      cell: ({ row }) => (
        <div className="flex flex-col items-start gap-1">
          <Badge variant={row.original.registerStatus === "Registered" ? "success" : "muted"}>{t(`ocpi.platform.statuses.${row.original.registerStatus}`)}</Badge>
          {row.original.lastError && <span className="max-w-64 text-[11px] break-words text-destructive">{row.original.lastError}</span>}
        </div>
      ),
    },
    { accessorKey: "version", header: t("ocpi.platform.version"), meta: { priority: 2 }, cell: ({ row }) => row.original.version ?? "—" },
    {
      id: "partner",
      header: t("ocpi.platform.partner"),
      cell: ({ row }) => (row.original.partnerCountryCode ? `${row.original.partnerCountryCode}*${row.original.partnerPartyId}` : "—"),
    },
    { id: "endpoints", header: t("ocpi.platform.endpoints"), meta: { priority: 3 }, cell: ({ row }) => row.original.endpoints.map((e) => `${e.identifier} (${e.role})`).join(", ") || "—" },
    { accessorKey: "registeredAt", header: t("ocpi.platform.registeredAt"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.registeredAt) || "—" },
    { id: "pulls", header: t("ocpi.pull.title"), meta: { priority: 2 }, cell: ({ row }) => <PullProgress pulls={pulls.filter((p) => p.platformId === row.original.id)} /> },
    actionsColumn<Platform>(t("common.actions"), (p) => {
      const registered = p.registerStatus === "Registered";
      const ready = p.hasToken && p.versionsUrl !== null;
      const editPlatform = edit(() => setEditing(p));
      // An eMSP partner has nothing for our eMSP side to pull (docs/rules/ocpi.md "Roles").
      const pull = mayCall(p.role, "EMSP") ? [act("pull", p, CloudDownload, t("ocpi.pull.start"))] : [];
      if (registered) return [...pull, act("unregister", p, Link2Off, t("ocpi.platform.unregister")), editPlatform];
      return [
        { ...act("register", p, Link2, t("ocpi.platform.register")), disabled: !ready, hint: ready ? undefined : t("ocpi.errors.tokenAndUrlFirst") },
        act("delete", p, Trash2, t("common.delete")),
        act("issueToken", p, KeyRound, t("ocpi.platform.issueToken")),
        editPlatform,
      ];
    }),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={title}
        description={identity ? t("ocpi.platform.description", { countryCode: identity.countryCode, partyId: identity.partyId }) : t("ocpi.errors.identityMissing")}
      />
      <DataTableToolbar
        actions={
          <Button onClick={() => setEditing("new")}>
            <Plus aria-hidden />
            {t("ocpi.platform.add")}
          </Button>
        }
      >
        <FilterText name="q" label={t("ocpi.platform.name")} />
        <FilterSelect name="status" label={t("ocpi.platform.registerStatus")} all={t("ocpi.platform.allStatuses")} options={(["Registered", "Unregistered"] as const).map((s) => [s, t(`ocpi.platform.statuses.${s}`)] as const)} />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("ocpi.platform.empty")} label={title} />
      <PlatformDialog platform={editing} onClose={() => setEditing(null)} />
      <Dialog open={issued !== null} onOpenChange={(open) => !open && setIssued(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t("ocpi.platform.issuedTitle")}</DialogTitle>
            <DialogDescription>{t("ocpi.platform.issuedText")}</DialogDescription>
          </DialogHeader>
          <dl className="grid gap-2 text-sm">
            <dt className="text-muted-foreground">{t("ocpi.platform.token")}</dt>
            <dd className="rounded-md bg-muted p-2 font-mono break-all">{issued?.token}</dd>
            <dt className="text-muted-foreground">{t("ocpi.platform.ourVersionsUrl")}</dt>
            <dd className="rounded-md bg-muted p-2 font-mono break-all">{issued?.versionsUrl}</dd>
          </dl>
          <DialogFooter>
            <Button onClick={() => setIssued(null)}>{t("ocpi.platform.issuedDone")}</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

type Pull = Awaited<ReturnType<typeof loader>>["pulls"][number];

/** Each module's last pull: state, pages and objects, skipped objects with their first reason, the last success or error. */
function PullProgress({ pulls }: { pulls: Pull[] }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  if (pulls.length === 0) return <span className="text-muted-foreground">{t("ocpi.pull.never")}</span>;
  return (
    <ul className="flex flex-col gap-1 text-xs">
      {pulls.map((p) => (
        <li key={p.module}>
          <span className="font-medium">{t(`ocpi.pull.modules.${p.module}`)}</span>{" "}
          <Badge variant={p.state === "FAILED" ? "destructive" : p.state === "DONE" ? "success" : "outline"}>{t(`ocpi.pull.states.${p.state}`)}</Badge>{" "}
          {t("ocpi.pull.counts", { pages: p.pages, objects: p.objects, skipped: p.skipped })}
          {p.lastSuccessAt && <span className="block text-muted-foreground">{t("ocpi.pull.lastSuccess", { at: dateTime(p.lastSuccessAt) })}</span>}
          {p.problems[0] && <span className="block break-words text-muted-foreground">{t("ocpi.pull.skippedReason", { id: p.problems[0].id ?? "—", reason: p.problems[0].reason })}</span>}
          {p.state === "FAILED" && p.lastError && <span className="block max-w-64 break-words text-destructive">{p.lastError}</span>}
        </li>
      ))}
    </ul>
  );
}

/**
 * Add or change a platform: name, the partner's versions URL and its token A (left empty: kept,
 * unless the URL changes: docs/rules/settings.md "Secrets at rest").
 */
function PlatformDialog({ platform, onClose }: { platform: Platform | "new" | null; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof action>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const editing = platform !== null && platform !== "new" ? platform : null;
  const close = () => {
    setErrors({});
    onClose();
  };
  useActionOutcome<Done>(
    fetcher,
    (data) => {
      toast.success(t(`ocpi.platform.done.${data.intent}`));
      close();
    },
    (name, message) => setErrors((e) => ({ ...e, [name]: message })),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setErrors({});
    const form = new FormData(event.currentTarget);
    if (String(form.get("name") ?? "").trim() === "") return setErrors({ name: t("ocpi.validation.name") });
    fetcher.submit(form, { method: "post" });
  };
  const field = (name: "name" | "versionsUrl" | "token", props: { defaultValue?: string; type?: string; placeholder?: string }) => (
    <div className="flex flex-col gap-2">
      <Label htmlFor={`platform-${name}`}>{t(`ocpi.platform.${name}`)}</Label>
      <Input id={`platform-${name}`} name={name} {...props} aria-invalid={Boolean(errors[name])} aria-describedby={errors[name] ? `platform-${name}-error` : undefined} />
      {errors[name] && (
        <p id={`platform-${name}-error`} className="text-xs text-destructive">
          {errors[name]}
        </p>
      )}
    </div>
  );
  const locked = editing?.registerStatus === "Registered";
  return (
    <Dialog open={platform !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t(editing ? "ocpi.platform.editTitle" : "ocpi.platform.addTitle")}</DialogTitle>
            <DialogDescription>{t(locked ? "ocpi.errors.registeredFixed" : "ocpi.platform.formText")}</DialogDescription>
          </DialogHeader>
          <input type="hidden" name="intent" value={editing ? "update" : "create"} />
          {editing && <input type="hidden" name="id" value={editing.id} />}
          {field("name", { defaultValue: editing?.name ?? "" })}
          <div className="flex flex-col gap-2">
            <Label htmlFor="platform-role">{t("ocpi.cpo.role.label")}</Label>
            <NativeSelect id="platform-role" name="role" defaultValue={editing?.role ?? "CPO"} disabled={locked} aria-describedby="platform-role-hint">
              {PARTNER_ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`ocpi.cpo.role.${role}`)}
                </option>
              ))}
            </NativeSelect>
            <p id="platform-role-hint" className="text-xs text-muted-foreground">
              {t("ocpi.cpo.role.hint")}
            </p>
          </div>
          {field("versionsUrl", { defaultValue: editing?.versionsUrl ?? "", type: "url", placeholder: "https://cpo.example/ocpi/versions" })}
          {!locked && field("token", { type: "password", placeholder: editing?.hasToken ? t("ocpi.platform.tokenKept") : "" })}
          {!locked && editing?.hasToken && <p className="text-xs text-muted-foreground">{t("common.secretFollowsAddress")}</p>}
          <FormDialogFooter onCancel={close} busy={fetcher.state !== "idle"} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
