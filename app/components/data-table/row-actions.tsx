import type { ColumnDef } from "@tanstack/react-table";
import type { LucideIcon } from "lucide-react";
import { Eye, MoreHorizontal, Pencil, Power, PowerOff, Trash2 } from "lucide-react";
import { useCallback, useMemo, type ComponentProps, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import { useActionOutcome } from "~/components/page-actions";
import { Button } from "~/components/ui/button";
import { useConfirm, type ConfirmOptions } from "~/components/ui/confirm-dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { toast } from "~/components/ui/toast";
import { cn } from "~/lib/cn";
import { layoutRowActions } from "./row-action-layout";

/** One action of a table row: a link (`to`) or a command (`onSelect`), always with an icon and a label. */
export type RowAction = {
  label: string;
  icon: LucideIcon;
  to?: string;
  onSelect?: () => void | Promise<void>;
  destructive?: boolean;
  disabled?: boolean;
  /** Shown on hover: why the action is disabled, or what it does. */
  hint?: string;
  /** With `to`: a file the browser downloads under this name, not a page of the console. */
  download?: string;
  /** With `to`: keeps the list's scroll position (a link that opens a dialog over the list). */
  keepScroll?: boolean;
  /** The accessible name where the label alone does not say which record; it starts with the label (WCAG 2.5.3). */
  name?: string;
  /**
   * Asked before `onSelect` runs (docs/rules/console.md "Messages and toasts"); the confirm button
   * is named after the action and red when the action is destructive, unless the options say otherwise.
   */
  confirm?: ConfirmOptions;
};

type MaybeAction = RowAction | false | null | undefined;

/**
 * The actions column of a list (docs/rules/console.md "Row actions"): pinned right by the table,
 * its cell the row's `RowActions`. Pages list a row's actions; none draws its own buttons.
 */
export function actionsColumn<T>(header: string, actionsOf: (row: T) => readonly MaybeAction[], width = 240): ColumnDef<T> {
  return { id: "actions", header, meta: { width }, cell: ({ row }) => <RowActions actions={actionsOf(row.original)} /> };
}

/**
 * The actions most lists share, labelled from the common catalogue: open the detail, edit (a page
 * or a dialog), delete after a red confirmation, and enable or disable after a confirmation.
 */
export function useCommonRowActions() {
  const { t } = useTranslation();
  const detail = useCallback((to: string): RowAction => ({ label: t("common.detail"), icon: Eye, to }), [t]);
  const edit = useCallback(
    (target: string | (() => void), extra: Partial<RowAction> = {}): RowAction => ({
      label: t("common.edit"),
      icon: Pencil,
      ...(typeof target === "string" ? { to: target } : { onSelect: target }),
      ...extra,
    }),
    [t],
  );
  const remove = useCallback(
    (run: () => void, { message, ...extra }: Partial<RowAction> & { message?: string } = {}): RowAction => ({
      label: t("common.delete"),
      icon: Trash2,
      destructive: true,
      onSelect: run,
      confirm: { message: message ?? t("common.confirmDelete") },
      ...extra,
    }),
    [t],
  );
  /** Enabling confirms plainly, disabling in red; `messages` name the record when the list has them. */
  const toggle = useCallback(
    (enabled: boolean, run: () => void, messages: { enable?: string; disable?: string; enableLabel?: string; disableLabel?: string } = {}): RowAction => {
      const label = enabled ? (messages.disableLabel ?? t("common.disable")) : (messages.enableLabel ?? t("common.enable"));
      return {
        label,
        icon: enabled ? PowerOff : Power,
        onSelect: run,
        confirm: { message: enabled ? (messages.disable ?? t("common.confirmDisable")) : (messages.enable ?? t("common.confirmEnable")), destructive: enabled },
      };
    },
    [t],
  );
  // One object while the language stays: memoised columns built from it keep their cells (and an open row menu).
  return useMemo(() => ({ detail, edit, remove, toggle }), [detail, edit, remove, toggle]);
}

/**
 * The Delete of a list whose route action deletes a row: `deleteRow(fields)` posts the row's
 * fields (its `id`, and an `intent` where the action has several) after the red confirmation,
 * and the action's outcome shows as one toast, `deleted` or the refusal's message.
 */
export function useDeleteRowAction(deleted: string) {
  const { remove } = useCommonRowActions();
  const fetcher = useFetcher();
  useActionOutcome(fetcher, () => toast.success(deleted));
  const { submit } = fetcher;
  return useCallback(
    (fields: Record<string, string | number>, extra?: Parameters<typeof remove>[1]) => remove(() => submit(fields, { method: "post" }), extra),
    [remove, submit],
  );
}

/** Runs a command action, asking first when it says so. */
function useRunAction() {
  const confirm = useConfirm();
  return async ({ label, onSelect, destructive, confirm: asking }: RowAction) => {
    if (asking && !(await confirm({ destructive, confirmLabel: label, ...asking }))) return;
    await onSelect?.();
  };
}

/**
 * The actions of one table row, laid out the same on every list (docs/rules/console.md "Row
 * actions"): icon-and-label buttons, the rest in a "⋯" menu when there are more than two. A falsy
 * entry is an action this row or this user does not have.
 */
export function RowActions({ actions }: { actions: readonly MaybeAction[] }) {
  const { t } = useTranslation();
  const run = useRunAction();
  const { inline, menu } = layoutRowActions(actions);
  return (
    <div className="flex items-center gap-1" data-row-actions="">
      {inline.map((action) => (
        <InlineAction key={action.label} action={action} run={run} />
      ))}
      {menu.length > 0 && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={t("names.rowActions.more")}>
              <MoreHorizontal aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {menu.map((action) => {
              const { label, icon: Icon, to, destructive, disabled, hint, name } = action;
              return to ? (
                <DropdownMenuItem key={label} asChild disabled={disabled} title={hint} aria-label={name} variant={destructive ? "destructive" : "default"}>
                  <ActionLink action={action}>
                    <Icon aria-hidden />
                    {label}
                  </ActionLink>
                </DropdownMenuItem>
              ) : (
                <DropdownMenuItem key={label} disabled={disabled} title={hint} aria-label={name} variant={destructive ? "destructive" : "default"} onSelect={() => void run(action)}>
                  <Icon aria-hidden />
                  {label}
                </DropdownMenuItem>
              );
            })}
          </DropdownMenuContent>
        </DropdownMenu>
      )}
    </div>
  );
}

function InlineAction({ action, run }: { action: RowAction; run: (action: RowAction) => Promise<void> }) {
  const { label, icon: Icon, to, destructive, disabled, hint, name } = action;
  const className = cn(destructive && "text-destructive");
  if (to)
    return (
      <Button asChild variant="ghost" size="sm" className={className} disabled={disabled} title={hint} aria-label={name}>
        <ActionLink action={action}>
          <Icon aria-hidden />
          {label}
        </ActionLink>
      </Button>
    );
  return (
    <Button variant="ghost" size="sm" className={className} disabled={disabled} title={hint} aria-label={name} onClick={() => void run(action)}>
      <Icon aria-hidden />
      {label}
    </Button>
  );
}

/** A link action: a page of the console, or a file to download. Props from a wrapping `asChild` pass through. */
function ActionLink({ action: { to = "", download, keepScroll }, children, ...props }: { action: RowAction; children: ReactNode } & Omit<ComponentProps<"a">, "href">) {
  if (download !== undefined)
    return (
      <a href={to} download={download} {...props}>
        {children}
      </a>
    );
  return (
    <Link to={to} preventScrollReset={keepScroll} {...props}>
      {children}
    </Link>
  );
}
