import type { LoaderFunctionArgs } from "react-router";
import { requestLanguage } from "../workers/i18n";

/** The page's language (`lang`, else the cookie, else English) and the nonce its scripts carry. */
export function loadRoot({ request, context }: LoaderFunctionArgs) {
  return { lang: requestLanguage(request), nonce: context.cloudflare.nonce };
}
