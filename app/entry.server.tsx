import { isbot } from "isbot";
import { reportError } from "../workers/http/report-error";
import { renderToReadableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { CATALOGUES } from "../domain/i18n/catalogues";
import { provideCatalogues } from "../domain/i18n/load";

// Pages render with their language's catalogue at hand, never waiting for it (app/lib/use-i18n.ts).
provideCatalogues(CATALOGUES);

/** Streams the console's HTML (Cloudflare's React Router template), with the CSP nonce of this request. */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  let shellRendered = false;
  const body = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} nonce={loadContext.cloudflare.nonce} />, {
    nonce: loadContext.cloudflare.nonce,
    onError(error: unknown) {
      responseStatusCode = 500;
      // Errors after the shell has streamed are reported; those before it reject the promise.
      if (shellRendered) reportError("console render", error);
    },
  });
  shellRendered = true;

  // Crawlers and SPA mode wait for the whole page; browsers get it streamed.
  if ((request.headers.get("user-agent") && isbot(request.headers.get("user-agent") ?? "")) || routerContext.isSpaMode) {
    await body.allReady;
  }

  responseHeaders.set("Content-Type", "text/html");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * React Router's hook for errors its loaders and actions throw: reported in the server's one
 * error shape, unless the browser went away meanwhile or the answer is the caller's mistake (a
 * 4xx React Router answers itself, such as a POST to a page that takes none: 405).
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  reportError("console", error, { url: new URL(request.url).pathname });
}
