import { data, type LoaderFunctionArgs } from "react-router";
import { firstLeafUrl } from "../../tenants/permissions";
import { optionalCtx, rememberedOperator } from "../lib/ctx.server";
import { shellData } from "./console/shell.server";

/**
 * Where the page's link leads (the user's first screen, else the remembered operator's login) and,
 * for a logged-in user, the shell to show it in.
 */
export async function loadNotFound({ request, context }: LoaderFunctionArgs) {
  const ctx = await optionalCtx(request, context);
  const code = rememberedOperator(request);
  const home = ctx ? (firstLeafUrl(ctx.actor.menu) ?? "/homePage") : code ? `/${code}/login` : "/homePage";
  const shell = ctx && !ctx.actor.mustChangePassword ? await shellData(request, ctx) : null;
  // A path that names nothing answers 404; the /404 page itself is a normal page.
  return data({ home, shell }, { status: new URL(request.url).pathname === "/404" ? 200 : 404 });
}
