import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Construction } from "lucide-react";
import { cn } from "~/lib/cn";

/** The empty state for a screen not built yet: says so, and what the screen will do. */
export function ComingSoon({
  description,
  title,
  className,
}: {
  /** What the screen will let the user do; defaults to a general sentence. */
  description?: ReactNode;
  title?: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className={cn(
        "flex flex-col items-center justify-center gap-4 rounded-xl border border-dashed bg-card px-6 py-16 text-center",
        className,
      )}
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <Construction className="size-6" aria-hidden />
      </span>
      <div className="max-w-md space-y-2">
        <h2 id={titleId} className="text-lg font-semibold">
          {title ?? t("ui.comingSoon.title")}
        </h2>
        <p className="text-sm text-muted-foreground">{description ?? t("ui.comingSoon.description")}</p>
      </div>
      <p className="text-xs text-muted-foreground">{t("ui.comingSoon.note")}</p>
    </section>
  );
}
