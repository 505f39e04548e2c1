import { useTranslation } from "react-i18next";
import { Moon, Sun } from "lucide-react";
import { Button } from "~/components/ui/button";
import { WithTooltip } from "~/components/ui/tooltip";
import { setThemeMode, useThemeMode } from "./theme";

export function ThemeToggle() {
  const { t } = useTranslation();
  const mode = useThemeMode();
  const next = mode === "dark" ? "light" : "dark";
  const label = t(next === "dark" ? "ui.theme.toDark" : "ui.theme.toLight");
  return (
    <WithTooltip label={label}>
      <Button variant="ghost" size="icon" onClick={() => setThemeMode(next)} aria-label={label}>
        {mode === "dark" ? <Sun aria-hidden /> : <Moon aria-hidden />}
      </Button>
    </WithTooltip>
  );
}
