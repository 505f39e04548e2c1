import { useRef } from "react";
import { Link, useSubmit } from "react-router";
import { useTranslation } from "react-i18next";
import { ChevronDown, KeyRound, LogOut } from "lucide-react";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import type { ShellData } from "./types";

/** Sub-operators change their password under /suboperators (docs/rules/console.md "Shell"). */
export function passwordChangeUrl(sub: 0 | 1) {
  return sub === 1 ? "/suboperators/rePassword" : "/rePassword";
}

export function AccountMenu({ user }: { user: ShellData["user"] }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const submit = useSubmit();
  const logoutRequested = useRef(false);

  const logOut = async () => {
    const sure = await confirm({
      title: t("ui.account.logoutTitle"),
      message: t("ui.account.logoutConfirm"),
      confirmLabel: t("ui.account.logout"),
    });
    if (sure) void submit(new FormData(), { method: "post", action: "/logout" });
  };

  const initial = (user.name || user.account).trim().charAt(0).toUpperCase();

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named by the user's name, which it shows on wide screens (a label that differs from what is shown confuses voice control). */}
        <Button variant="ghost" className="gap-2 px-1.5 sm:px-2">
          <span
            aria-hidden
            className="flex size-7 items-center justify-center rounded-full bg-accent text-xs font-semibold text-accent-foreground"
          >
            {initial}
          </span>
          <span className="sr-only text-sm lg:not-sr-only lg:max-w-40 lg:truncate">{user.name || user.account}</span>
          <ChevronDown className="hidden size-3.5 opacity-60 lg:block" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="w-60"
        // The confirmation opens once the menu has closed and handed focus back to its trigger,
        // so the dialog's focus trap and the menu's focus return do not fight.
        onCloseAutoFocus={() => {
          if (!logoutRequested.current) return;
          logoutRequested.current = false;
          setTimeout(() => void logOut(), 0);
        }}
      >
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate">{user.name || user.account}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.account}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={passwordChangeUrl(user.sub)}>
            <KeyRound aria-hidden />
            {t("ui.account.changePassword")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem variant="destructive" onSelect={() => (logoutRequested.current = true)}>
          <LogOut aria-hidden />
          {t("ui.account.logout")}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
