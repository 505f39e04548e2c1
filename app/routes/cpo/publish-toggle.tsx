import { Globe, GlobeLock } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import { useActionOutcome } from "~/components/page-actions";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";

/**
 * "Publish to roaming" on a station's page (docs/rules/ocpi.md "Locations we publish"): posts
 * `{ intent: "publish", id, publish }` to the page's action after a confirmation naming the
 * station; the station goes to every eMSP partner at once, or is withdrawn.
 */
export function PublishToggle({ station }: { station: { id: number; name: string; publishToRoaming: boolean } }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const fetcher = useFetcher();
  useActionOutcome(fetcher, () => toast.success(t(station.publishToRoaming ? "ocpi.cpo.location.published" : "ocpi.cpo.location.withdrawn")));
  const publishing = !station.publishToRoaming;
  const busy = fetcher.state !== "idle";
  const toggle = async () => {
    const ok = await confirm({
      title: t(publishing ? "ocpi.cpo.location.publishTitle" : "ocpi.cpo.location.withdrawTitle"),
      message: t(publishing ? "ocpi.cpo.location.publishMessage" : "ocpi.cpo.location.withdrawMessage", { name: station.name }),
      destructive: !publishing,
    });
    if (ok) fetcher.submit({ intent: "publish", id: station.id, publish: String(publishing) }, { method: "post" });
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Badge variant={station.publishToRoaming ? "success" : "muted"}>{t(station.publishToRoaming ? "ocpi.cpo.location.isPublished" : "ocpi.cpo.location.notPublished")}</Badge>
      <Button variant="outline" size="sm" onClick={toggle} disabled={busy} aria-pressed={station.publishToRoaming}>
        {publishing ? <Globe aria-hidden /> : <GlobeLock aria-hidden />}
        {t("ocpi.cpo.location.toggle")}
      </Button>
    </div>
  );
}
