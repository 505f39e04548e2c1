import type { Control } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { SettingsForm } from "../../../domain/schemas/settings-form";
import { NumberField } from "~/components/form/fields";
import { Section } from "./settings-kit";

/**
 * How much a charger may misbehave and when a session counts as stuck (docs/rules/ocpp.md
 * "A charger that floods", "A charger that keeps reconnecting"; docs/rules/monitoring.md
 * "Suspect sessions"): the operator sees and changes the numbers here.
 */
export function ResilienceFields({ control }: { control: Control<SettingsForm> }) {
  const { t } = useTranslation();
  return (
    <Section title={t("resilience.settings.title")} description={t("resilience.settings.hint")}>
      <NumberField control={control} name={"resilience.messagesPerSecond" as never} label={t("resilience.settings.messagesPerSecond")} hint={t("resilience.settings.messagesPerSecondHint")} required maxLength={4} />
      <NumberField control={control} name={"resilience.connectionsPerHour" as never} label={t("resilience.settings.connectionsPerHour")} hint={t("resilience.settings.connectionsPerHourHint")} required maxLength={5} />
      <NumberField control={control} name={"resilience.quarantineMinutes" as never} label={t("resilience.settings.quarantineMinutes")} required maxLength={5} />
      <NumberField control={control} name={"resilience.stuckSessionHours" as never} label={t("resilience.settings.stuckSessionHours")} hint={t("resilience.settings.stuckSessionHoursHint")} required maxLength={3} />
    </Section>
  );
}
