import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { createDb } from "../../db/client";
import { operatorByHost } from "../../tenants/resolve";
import { applyGuard, optionalCtx } from "../lib/ctx.server";
import { loginAction, loginPage } from "./login.server";
import LoginPage from "./login";

/**
 * `/`: on an operator's own domain this is its login page (SPEC.md §2); elsewhere the guard
 * sends a visitor on (first menu, remembered operator's login, or the operator picker).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await operatorByHost(createDb(context.cloudflare.env.DB), new URL(request.url).host);
  if (operator) return loginPage(request, context, operator.code);
  await applyGuard(request, context, await optionalCtx(request, context));
  throw redirect("/homePage");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await operatorByHost(createDb(context.cloudflare.env.DB), new URL(request.url).host);
  if (!operator) throw redirect("/homePage");
  return loginAction(request, context, operator.code);
}

export default LoginPage;
