import { useTranslation } from "react-i18next";
import type { PackageState, Validity } from "../../../domain/schemas/platform";
import { Badge } from "~/components/ui/badge";

/** How an operator stands today (docs/rules/platform.md "Validity"). */
export function ValidityBadge({ validity }: { validity: Validity }) {
  const { t } = useTranslation();
  return <Badge variant={validity === "valid" ? "success" : "muted"}>{t(`operators.validities.${validity}`)}</Badge>;
}

/** A price package's state (docs/rules/platform.md "Price packages"). */
export function PackageStateBadge({ state }: { state: PackageState }) {
  const { t } = useTranslation();
  return <Badge variant={state === "effective" ? "success" : "muted"}>{t(`packages.states.${state}`)}</Badge>;
}

/** A day or an instant as `YYYY-MM-DD` (validity windows and package days are whole UTC days). */
export const dayOf = (iso: string | null) => (iso ? iso.slice(0, 10) : "—");
