import type { LucideIcon } from "lucide-react";
import { Pencil, Plus } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, type FetcherWithComponents } from "react-router";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";

/** A small link button in a table row (Details, Edit…). */
export function RowLink({ to, icon: Icon, label }: { to: string; icon: LucideIcon; label: string }) {
  return (
    <Button asChild variant="ghost" size="sm">
      <Link to={to}>
        <Icon aria-hidden />
        {label}
      </Link>
    </Button>
  );
}

/**
 * A header's button that opens another page: the main action (Add, Edit) filled, a secondary one
 * (Back, Edit beside the page's own commands) outlined; the icon is left out where the page shows none.
 */
export function HeaderLink({ to, icon: Icon, label, variant = "default" }: { to: string; icon?: LucideIcon; label: string; variant?: "default" | "outline" }) {
  return (
    <Button asChild variant={variant}>
      <Link to={to}>
        {Icon && <Icon aria-hidden />}
        {label}
      </Link>
    </Button>
  );
}

/** The header of a list page: its title and an Add button. */
export function ListHeader({ title, addTo, addLabel }: { title: string; addTo: string; addLabel: string }) {
  return <PageHeader title={title} actions={<HeaderLink to={addTo} icon={Plus} label={addLabel} />} />;
}

/** The header of a detail page: Back to the list and Edit. */
export function DetailHeader({ title, description, backTo, editTo }: { title: string; description: string; backTo: string; editTo: string }) {
  const { t } = useTranslation();
  return (
    <PageHeader
      title={title}
      description={description}
      actions={
        <>
          <HeaderLink to={backTo} label={t("common.back")} variant="outline" />
          <HeaderLink to={editTo} icon={Pencil} label={t("common.edit")} />
        </>
      }
    />
  );
}

/** The header of a page about one's own record: its title and an Edit button. */
export function InfoHeader({ title, description, editTo, editLabel }: { title: string; description?: string; editTo: string; editLabel: string }) {
  return <PageHeader title={title} description={description} actions={<HeaderLink to={editTo} icon={Pencil} label={editLabel} />} />;
}

/** The header of a form page: Cancel back to the list, and Save (a submit button). */
export function FormHeader({ title, cancelTo, saving }: { title: string; cancelTo: string; saving: boolean }) {
  const { t } = useTranslation();
  return (
    <PageHeader
      title={title}
      actions={
        <>
          <HeaderLink to={cancelTo} label={t("common.cancel")} variant="outline" />
          <Button type="submit" disabled={saving}>
            {t("common.save")}
          </Button>
        </>
      }
    />
  );
}

/** What a console action answers: success, or a translated message with each field's message. */
export type ActionResult<T = object> = ({ ok: true } & T) | { ok: false; message: string; fields: Record<string, string> };

/**
 * Reports the end of a fetcher's submission once: the error toast and field messages on a
 * failure, or `onSuccess` (which usually toasts and navigates).
 */
export function useActionOutcome<T extends object>(
  // Any fetcher of an action that answers an ActionResult.
  fetcher: Pick<FetcherWithComponents<unknown>, "state" | "data">,
  onSuccess: (data: { ok: true } & T) => void,
  onFieldError?: (name: string, message: string) => void,
) {
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const data = fetcher.data as ActionResult<T>;
    if (data.ok) {
      onSuccess(data);
      return;
    }
    toast.error(data.message);
    for (const [name, message] of Object.entries(data.fields)) onFieldError?.(name, message);
    // The callbacks are recreated each render; the submission's end is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);
}
