import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { applyGuard, operatorOfHost, optionalCtx } from "../lib/ctx.server";
import { loginAction, loginPage } from "./login.server";

/** On an operator's own domain, its login page; elsewhere the guard sends the visitor on, else the operator picker. */
export async function loadIndex({ request, context }: LoaderFunctionArgs) {
  const operator = await operatorOfHost(request, context);
  if (operator) return loginPage(request, context, operator.code);
  await applyGuard(request, context, await optionalCtx(request, context));
  throw redirect("/homePage");
}

/** Logging in from `/` exists only on an operator's own domain. */
export async function indexLoginAction({ request, context }: ActionFunctionArgs) {
  const operator = await operatorOfHost(request, context);
  if (!operator) throw redirect("/homePage");
  return loginAction(request, context, operator.code);
}
