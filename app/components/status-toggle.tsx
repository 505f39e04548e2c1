import { Power, PowerOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { FetcherWithComponents } from "react-router";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";

/**
 * Enable or disable a record after a confirmation (docs/rules/console.md "Messages and toasts"):
 * posts `{id, status}` to the page's action; disabling has the red confirm button.
 */
export function StatusToggle({ id, status, fetcher }: { id: number; status: "VALID" | "INVALID"; fetcher: Pick<FetcherWithComponents<unknown>, "submit"> }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const enabling = status !== "VALID";
  const toggle = async () => {
    const ok = await confirm({
      message: t(enabling ? "common.confirmEnable" : "common.confirmDisable"),
      destructive: !enabling,
      confirmLabel: t(enabling ? "common.enable" : "common.disable"),
    });
    if (ok) fetcher.submit({ id, status: enabling ? "VALID" : "INVALID" }, { method: "post" });
  };
  return (
    <Button variant="ghost" size="sm" onClick={toggle}>
      {enabling ? <Power aria-hidden /> : <PowerOff aria-hidden />}
      {t(enabling ? "common.enable" : "common.disable")}
    </Button>
  );
}
