import { CalendarClock, ListChecks, LockOpen, Play, Square } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { OcpiLocation } from "../../../domain/schemas/ocpi/locations";
import type { RowAction } from "~/components/data-table/row-actions";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { CommandDialog, useCommandOutcome, type CommandTarget } from "./command-dialog";
import { commandAction, loadCommandTargets } from "./commands.server";
import { RoamingList, type Row } from "./roaming-list";

/**
 * The sessions and locations partners sent, with the commands a user who may operate sends from
 * them (docs/rules/ocpi.md "Commands"): Stop on an active session; Start, Reserve and Unlock at a
 * location, each asked for in a dialog first. The session screen leads to the commands sent.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadCommandTargets(args);
}

export function action(args: ActionFunctionArgs) {
  return commandAction(args);
}

const AT_LOCATION = [
  ["START_SESSION", Play],
  ["RESERVE_NOW", CalendarClock],
  ["UNLOCK_CONNECTOR", LockOpen],
] as const;

export default function CommandTargetsScreen() {
  const { kind, mayCommand } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  const [target, setTarget] = useState<CommandTarget | null>(null);
  useCommandOutcome(fetcher);

  const stop = async (row: Row) => {
    const ok = await confirm({
      title: t("ocpiCommands.confirm.STOP_SESSION.title"),
      message: t("ocpiCommands.confirm.STOP_SESSION.message", { session: row.sessionId, platform: row.platformName }),
      confirmLabel: t("ocpiCommands.action.STOP_SESSION"),
      destructive: true,
    });
    if (ok) fetcher.submit({ platformId: String(row.platformId), command: "STOP_SESSION", sessionId: String(row.sessionId) }, { method: "post" });
  };

  const atSession = (row: Row): RowAction[] =>
    row.status === "ACTIVE" ? [{ label: t("ocpiCommands.action.STOP_SESSION"), icon: Square, onSelect: () => stop(row) }] : [];
  const atLocation = (row: Row): RowAction[] =>
    AT_LOCATION.map(([command, icon]) => ({
      label: t(`ocpiCommands.action.${command}`),
      icon,
      onSelect: () => setTarget({ command, platformId: Number(row.platformId), location: row.data as OcpiLocation }),
    }));
  const rowActions = !mayCommand ? undefined : kind === "session" ? atSession : kind === "location" ? atLocation : undefined;
  const header =
    kind === "session" ? (
      <Button asChild variant="outline">
        <Link to="/emsp/emspSession/commands">
          <ListChecks aria-hidden />
          {t("page.emspCommands")}
        </Link>
      </Button>
    ) : undefined;

  return (
    <>
      <RoamingList rowActions={rowActions} headerActions={header} />
      <CommandDialog target={target} onClose={() => setTarget(null)} />
    </>
  );
}
