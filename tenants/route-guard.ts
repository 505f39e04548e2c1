import { matchPath } from "react-router";
import { ALWAYS_ALLOWED, PUBLIC_PAGES, type MenuEntry } from "./menu-catalogue";
import { entryForPath, firstLeafUrl } from "./permissions";

/**
 * The console's route guard (docs/rules/console.md "Route guard"), as a pure decision so that it is
 * tested without a browser. The console layout and public pages call it on every navigation.
 */
export interface GuardInput {
  path: string;
  user: null | {
    sub: 0 | 1;
    mustChangePassword: boolean;
    menu: readonly MenuEntry[];
  };
  /** The request came through an operator's own domain (its empty path is the login page). */
  operatorDomain: boolean;
  /** The operator code remembered in a cookie from the last login page. */
  storedOperatorCode: string | undefined;
}

export type GuardDecision =
  | { kind: "allow" }
  | { kind: "redirect"; to: string; messageKey?: GuardMessage };

export type GuardMessage =
  | "guard.insufficient"
  | "guard.noMenu"
  | "guard.operatorNoMenu"
  | "guard.noLogin"
  | "guard.changePassword";

const on = (patterns: readonly string[], path: string) =>
  patterns.some((p) => matchPath({ path: p, end: true }, path) !== null);

/** carrierList, homePage and the login pages (with or without an operator code). */
export function isEntryPage(path: string, operatorDomain: boolean): boolean {
  return (
    on(["/carrierList", "/homePage", "/login", "/login2", "/:operatorCode/login", "/:operatorCode/login2"], path) ||
    (operatorDomain && path === "/")
  );
}

export function rePasswordPath(sub: 0 | 1) {
  return sub === 1 ? "/suboperators/rePassword" : "/rePassword";
}

export function guard({ path, user, operatorDomain, storedOperatorCode }: GuardInput): GuardDecision {
  if (on(PUBLIC_PAGES, path)) return { kind: "allow" };

  if (user) {
    if (user.mustChangePassword && path !== rePasswordPath(user.sub) && path !== "/404") {
      return { kind: "redirect", to: rePasswordPath(user.sub), messageKey: "guard.changePassword" };
    }
    if (on(ALWAYS_ALLOWED, path)) return { kind: "allow" };
    if (isEntryPage(path, operatorDomain) || path === "/") {
      const first = firstLeafUrl(user.menu);
      if (first) return { kind: "redirect", to: first };
      return { kind: "redirect", to: "/404", messageKey: user.sub === 1 ? "guard.operatorNoMenu" : "guard.noMenu" };
    }
    if (entryForPath(user.menu, path)) return { kind: "allow" };
    return { kind: "redirect", to: "/404", messageKey: "guard.insufficient" };
  }

  if (operatorDomain) {
    // One operator's own domain: its root is the login page (docs/rules/console.md "Route guard").
    if (path === "/") return { kind: "allow" };
    if (on(["/carrierList", "/homePage"], path)) return { kind: "redirect", to: "/" };
    if (on(["/disclaimer/mobile", "/404"], path) || isEntryPage(path, true)) return { kind: "allow" };
    return { kind: "redirect", to: "/" };
  }
  if (isEntryPage(path, false) || on(["/disclaimer/mobile", "/404"], path)) return { kind: "allow" };
  if (storedOperatorCode) return { kind: "redirect", to: `/${storedOperatorCode}/login` };
  // The site's root is where a newcomer starts: the operator picker, with nothing to warn about
  // (docs/rules/console.md "Route guard").
  if (path === "/") return { kind: "redirect", to: "/homePage" };
  return { kind: "redirect", to: "/homePage", messageKey: "guard.noLogin" };
}
