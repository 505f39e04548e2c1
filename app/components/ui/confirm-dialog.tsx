import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "./alert-dialog";

export interface ConfirmOptions {
  /** Defaults to `ui.confirm.title`. */
  title?: ReactNode;
  /** Defaults to `ui.confirm.message`. */
  message?: ReactNode;
  /** Defaults to `ui.confirm.ok`. */
  confirmLabel?: ReactNode;
  /** Defaults to `ui.confirm.cancel`. */
  cancelLabel?: ReactNode;
  /** Red confirm button, for delete, void, disable and the like (docs/rules/console.md "Messages and toasts"). */
  destructive?: boolean;
}

export type Confirm = (options?: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** `const confirm = useConfirm(); if (await confirm({ … })) …`; needs a `<ConfirmProvider>` above. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error("useConfirm must be used inside <ConfirmProvider>");
  return confirm;
}

interface Pending {
  options: ConfirmOptions;
  resolve: (answer: boolean) => void;
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<ConfirmOptions>({});
  const pending = useRef<Pending | null>(null);

  const settle = useCallback((answer: boolean) => {
    pending.current?.resolve(answer);
    pending.current = null;
    setOpen(false);
  }, []);

  const confirm = useCallback<Confirm>((next = {}) => {
    // A second request while one is open answers the first with "no" rather than leaving it hanging.
    pending.current?.resolve(false);
    return new Promise<boolean>((resolve) => {
      pending.current = { options: next, resolve };
      setOptions(next);
      setOpen(true);
    });
  }, []);

  return (
    <ConfirmContext value={confirm}>
      {children}
      <AlertDialog open={open} onOpenChange={(isOpen) => !isOpen && settle(false)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{options.title ?? t("ui.confirm.title")}</AlertDialogTitle>
            <AlertDialogDescription>{options.message ?? t("ui.confirm.message")}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel onClick={() => settle(false)}>{options.cancelLabel ?? t("ui.confirm.cancel")}</AlertDialogCancel>
            <AlertDialogAction variant={options.destructive ? "destructive" : "default"} onClick={() => settle(true)}>
              {options.confirmLabel ?? t("ui.confirm.ok")}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </ConfirmContext>
  );
}
