import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";

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
      // Errors after the shell has streamed are logged; those before it reject the promise.
      if (shellRendered) console.error(error);
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
