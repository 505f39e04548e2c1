import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { CONNECTOR_STANDARDS, STANDARD_CURRENT, type ConnectorStandard } from "../../../domain/schemas/equipment";
import GBT1 from "~/assets/standards/GBT1.svg";
import GBT2 from "~/assets/standards/GBT2.svg";
import GBT3 from "~/assets/standards/GBT3.svg";
import IEC1 from "~/assets/standards/IEC1.svg";
import IEC2 from "~/assets/standards/IEC2.svg";
import IEC3 from "~/assets/standards/IEC3.svg";
import IIS from "~/assets/standards/IIS.svg";
import SAE1 from "~/assets/standards/SAE1.svg";
import SAE2 from "~/assets/standards/SAE2.svg";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/cn";
import type { loader as layoutLoader } from "../console/layout";

/** Each of the nine connector standards has an image, drawn for Plugdesk, face-on (docs/rules/equipment.md "Connectors"). */
export const STANDARD_IMAGES: Record<ConnectorStandard, string> = { SAE1, SAE2, IIS, IEC1, IEC2, IEC3, GBT1, GBT2, GBT3 };

export function StandardImage({ standard, size = 40, className }: { standard: ConnectorStandard; size?: number; className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn("inline-flex shrink-0 items-center justify-center rounded-md border bg-white p-0.5", className)}
      style={{ width: size, height: size }}
    >
      <img src={STANDARD_IMAGES[standard]} alt={t(`points.standards.${standard}`)} width={size - 6} height={size - 6} draggable={false} />
    </span>
  );
}

/** A standard as one line: its image, its name and whether it carries AC or DC. */
export function StandardLabel({ standard, size = 28 }: { standard: ConnectorStandard; size?: number }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center gap-2">
      <StandardImage standard={standard} size={size} />
      <span className="truncate">{t(`points.standards.${standard}`)}</span>
    </span>
  );
}

/**
 * The standards in the operator's connector type order (docs/rules/settings.md "Display
 * switches"), as the console layout's shell carries it; the usual order outside the console.
 */
export function useConnectorStandards(): readonly ConnectorStandard[] {
  return useRouteLoaderData<typeof layoutLoader>("routes/console/layout")?.connectorTypeOrder ?? CONNECTOR_STANDARDS;
}

/** The nine standards side by side, the ones that fit the chosen point type highlighted. */
export function StandardGallery({ fits }: { fits?: (standard: ConnectorStandard) => boolean }) {
  const { t } = useTranslation();
  const standards = useConnectorStandards();
  return (
    <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5 xl:grid-cols-9" aria-label={t("points.standardsTitle")}>
      {standards.map((standard) => {
        const fitting = fits ? fits(standard) : true;
        return (
          <li
            key={standard}
            // Only the picture fades for a standard that does not fit: faded text would be unreadable.
            className={cn("flex flex-col items-center gap-1.5 rounded-lg border p-2 text-center", fitting ? "bg-card" : "bg-muted/40 text-muted-foreground")}
          >
            <StandardImage standard={standard} size={52} className={cn("border-0 transition-opacity", !fitting && "opacity-40 grayscale")} />
            <span className="text-xs leading-tight font-medium">{t(`points.standards.${standard}`)}</span>
            <Badge variant={fitting ? (STANDARD_CURRENT[standard] === "DC" ? "success" : "info") : "muted"} className="px-1.5 py-0 text-[10px]">
              {standard} · {STANDARD_CURRENT[standard]}
            </Badge>
          </li>
        );
      })}
    </ul>
  );
}
