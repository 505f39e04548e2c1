import { Copy } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";

/**
 * Copies a value to the clipboard and says so; its accessible name says what it copies (`item`),
 * so a row of several copy buttons reads apart to a screen reader.
 */
export function CopyButton({ value, item, testId }: { value: string; item: string; testId?: string }) {
  const { t } = useTranslation();
  const label = t("onboarding.copy.label", { item });
  return (
    <Button
      type="button"
      variant="outline"
      size="icon-sm"
      aria-label={label}
      title={label}
      data-testid={testId}
      onClick={async () => {
        await navigator.clipboard?.writeText(value);
        toast.success(t("onboarding.copy.copied", { item }));
      }}
    >
      <Copy aria-hidden />
    </Button>
  );
}
