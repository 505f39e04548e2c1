import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { changePassword } from "../../workers/services/auth/session-verbs";
import { actionError, requireCtx, sessionCookie } from "../lib/ctx.server";
import { actionForm } from "../lib/input.server";

/** Whether the change is forced (an initial password) and whose console it is. */
export async function loadRePassword({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { forced: ctx.actor.mustChangePassword, operatorCode: ctx.operator.code, operatorName: ctx.operator.name };
}

/** Changes the password; every session has ended, so the cookie goes and the login page follows. */
export async function changePasswordAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    await changePassword(ctx, Object.fromEntries(await actionForm(request)));
  } catch (error) {
    return actionError(error, ctx.lang);
  }
  return redirect(`/${ctx.operator.code}/login?msg=login.passwordChanged`, {
    headers: { "Set-Cookie": sessionCookie(request, context, "") },
  });
}
