import { useTranslation } from "react-i18next";
import { useLiveConnected } from "~/lib/live";
import { cn } from "~/lib/cn";

/** Whether the page is receiving live updates now: a green pulse, or amber while reconnecting. */
export function LiveIndicator({ className }: { className?: string }) {
  const { t } = useTranslation();
  const connected = useLiveConnected();
  return (
    <span
      role="status"
      title={t("monitoring.common.liveHint")}
      data-live={connected ? "on" : "off"}
      className={cn(
        "inline-flex items-center gap-2 rounded-full border px-2.5 py-1 text-xs font-medium",
        connected ? "border-success/30 bg-success/10 text-success" : "border-warning/30 bg-warning/10 text-warning",
        className,
      )}
    >
      <span className="relative flex size-2">
        {connected && <span className="absolute inline-flex size-full animate-ping rounded-full bg-current opacity-60" aria-hidden />}
        <span className="relative inline-flex size-2 rounded-full bg-current" aria-hidden />
      </span>
      {connected ? t("monitoring.common.live") : t("monitoring.common.reconnecting")}
    </span>
  );
}
