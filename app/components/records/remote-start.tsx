import { Radio } from "lucide-react";
import { isOperatorRemoteTag } from "../../../domain/remote-start-tag";
import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/** The record-action names a remote-start session explains, in the order the record page shows its buttons. */
const EXPLAINED_ACTIONS = ["settle", "complete", "abnormal", "unplug", "retry"] as const;

/**
 * A session started with the operator's own remote-start tag, marked in a list (docs/rules/console.md
 * "Names"): a badge whose title says that nobody pays for it.
 */
export function RemoteStartBadge({ tag }: { tag: string }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" title={t("names.remoteStart.hint", { tag })} data-testid="remote-start">
      <Radio aria-hidden />
      {t("names.remoteStart.badge")}
    </Badge>
  );
}

/** A session's tag in a list, marked when it is the operator's own remote-start tag (`remoteTag`). */
export function IdTagCell({ idTag, remoteTag }: { idTag: string; remoteTag: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <span className="font-mono text-xs">{idTag}</span>
      {isOperatorRemoteTag(idTag, remoteTag) && <RemoteStartBadge tag={idTag} />}
    </span>
  );
}

/**
 * What a remote-start session is, on its record page: what it cost, that nobody pays, and what
 * each action that applies to it now does there (docs/rules/console.md "Names").
 */
export function RemoteStartCard({ tag, cost, actions }: { tag: string; cost: string | null; actions: readonly string[] }) {
  const { t } = useTranslation();
  const explained = EXPLAINED_ACTIONS.filter((a) => actions.includes(a));
  return (
    <Card data-testid="remote-start-explained">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <Radio aria-hidden className="size-4" />
          {t("names.remoteStart.title")}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        <p>{cost === null ? t("names.remoteStart.notPriced") : t("names.remoteStart.cost", { amount: cost })}</p>
        <p>{t("names.remoteStart.payer", { tag })}</p>
        {explained.length > 0 && (
          <>
            <h3 className="mt-2 font-medium">{t("names.remoteStart.actionsTitle")}</h3>
            <ul className="list-disc pl-5 text-muted-foreground">
              {explained.map((a) => (
                <li key={a}>{t(`names.remoteStart.actions.${a}`)}</li>
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}
