import { Copy } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/components/ui/toast";

/**
 * Shows an initial password once, with a copy button (docs/rules/sessions.md "Initial
 * password"): new accounts, provisioned operators and sub-operators.
 */
export function InitialPasswordDialog({ password, title, text, onClose }: { password: string | null; title: string; text: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={password !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{text}</DialogDescription>
        </DialogHeader>
        <div className="flex items-center justify-between gap-3 rounded-md border bg-muted px-4 py-3">
          <code data-testid="initial-password" className="font-mono text-lg tracking-wider">
            {password}
          </code>
          <Button
            variant="outline"
            size="sm"
            onClick={async () => {
              await navigator.clipboard?.writeText(password ?? "");
              toast.success(t("accounts.copied"));
            }}
          >
            <Copy aria-hidden />
            {t("accounts.copy")}
          </Button>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>{t("common.back")}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
