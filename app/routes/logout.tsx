import { redirect, type ActionFunctionArgs } from "react-router";
import { logoutAction } from "./logout.server";

/**
 * The console logs out through this action: its cookie session ends. Ending a session is a
 * change, so a cross-site form cannot log anyone out (docs/rules/sessions.md).
 */
export function action(args: ActionFunctionArgs) {
  return logoutAction(args);
}

export function loader() {
  return redirect("/");
}
