import type { LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { cn } from "~/lib/cn";

/** Tone of a summary figure, matching the display classes (docs/rules/monitoring.md "Connector states"). */
export type Tone = "neutral" | "success" | "danger" | "info" | "muted" | "warning";

const TONE: Record<Tone, string> = {
  neutral: "text-foreground",
  success: "text-success",
  danger: "text-destructive",
  info: "text-info",
  muted: "text-muted-foreground",
  warning: "text-warning",
};

export interface SummaryItem {
  key: string;
  label: string;
  value: number;
  tone: Tone;
  icon: LucideIcon;
  /** Filters the list to this figure when set. */
  to?: string;
  active?: boolean;
}

/** A row of counters above a monitoring list; each one filters the list to what it counts. */
export function SummaryCards({ items }: { items: SummaryItem[] }) {
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {items.map(({ key, label, value, tone, icon: Icon, to, active }) => {
        const body = (
          <>
            <span className={cn("flex size-10 shrink-0 items-center justify-center rounded-lg bg-muted", TONE[tone])}>
              <Icon className="size-5" aria-hidden />
            </span>
            <span className="flex min-w-0 flex-col">
              <span className="truncate text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</span>
              <span className={cn("text-2xl font-semibold tabular-nums", TONE[tone])} data-testid={`summary-${key}`}>
                {value}
              </span>
            </span>
          </>
        );
        const classes = cn(
          "flex items-center gap-3 rounded-xl border bg-card p-4 shadow-xs transition-colors",
          to && "hover:border-primary/40 hover:bg-accent/40",
          active && "border-primary/60 ring-2 ring-primary/15",
        );
        return to ? (
          <Link key={key} to={to} className={classes} aria-current={active ? "true" : undefined} preventScrollReset>
            {body}
          </Link>
        ) : (
          <div key={key} className={classes}>
            {body}
          </div>
        );
      })}
    </div>
  );
}
