import type { LucideIcon } from "lucide-react";
import { MoreHorizontal } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
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
};

/**
 * The actions of one table row, laid out the same on every list (docs/rules/console.md "Row
 * actions"): icon-and-label buttons, the rest in a "⋯" menu when there are more than two. A falsy
 * entry is an action this row or this user does not have.
 */
export function RowActions({ actions }: { actions: readonly (RowAction | false | null | undefined)[] }) {
  const { t } = useTranslation();
  const { inline, menu } = layoutRowActions(actions);
  return (
    <div className="flex items-center gap-1" data-row-actions="">
      {inline.map((action) => (
        <InlineAction key={action.label} action={action} />
      ))}
      {menu.length > 0 && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={t("names.rowActions.more")}>
              <MoreHorizontal aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {menu.map(({ label, icon: Icon, to, onSelect, destructive, disabled }) =>
              to ? (
                <DropdownMenuItem key={label} asChild disabled={disabled} variant={destructive ? "destructive" : "default"}>
                  <Link to={to}>
                    <Icon aria-hidden />
                    {label}
                  </Link>
                </DropdownMenuItem>
              ) : (
                <DropdownMenuItem key={label} disabled={disabled} variant={destructive ? "destructive" : "default"} onSelect={() => void onSelect?.()}>
                  <Icon aria-hidden />
                  {label}
                </DropdownMenuItem>
              ),
            )}
          </DropdownMenuContent>
        </DropdownMenu>
      )}
    </div>
  );
}

function InlineAction({ action: { label, icon: Icon, to, onSelect, destructive, disabled } }: { action: RowAction }) {
  const className = cn(destructive && "text-destructive");
  if (to)
    return (
      <Button asChild variant="ghost" size="sm" className={className} disabled={disabled}>
        <Link to={to}>
          <Icon aria-hidden />
          {label}
        </Link>
      </Button>
    );
  return (
    <Button variant="ghost" size="sm" className={className} disabled={disabled} onClick={() => void onSelect?.()}>
      <Icon aria-hidden />
      {label}
    </Button>
  );
}
