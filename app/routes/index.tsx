import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { indexLoginAction, loadIndex } from "./index.server";
import LoginPage from "./login";

/**
 * `/`: on an operator's own domain this is its login page; elsewhere the guard sends a visitor on
 * (first menu, remembered operator's login, or the operator picker; docs/rules/console.md "Route
 * guard").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadIndex(args);
}

export function action(args: ActionFunctionArgs) {
  return indexLoginAction(args);
}

export default LoginPage;
