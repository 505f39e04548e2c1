import { useEffect, useState } from "react";
import { useApi, type ApiResult } from "~/lib/api";

/** An operator found by name: its code, name and logo. */
export type OperatorChoice = ApiResult<"get", "/user-service/operator/homepage">[number];

/**
 * Finds operators by name as one types, a quarter of a second after typing pauses (GET
 * /user-service/operator/homepage): the operator picker of homePage and the account deletion page.
 * An empty keyword finds nothing; an answer that arrives after the keyword changed is dropped.
 */
export function useOperatorSearch(keyword: string) {
  const api = useApi();
  const [choices, setChoices] = useState<OperatorChoice[]>([]);
  useEffect(() => {
    const term = keyword.trim();
    if (!term) return setChoices([]);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .get("/user-service/operator/homepage", { query: { keyword: term } })
        .then((found) => {
          if (!controller.signal.aborted) setChoices(found);
        })
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [keyword, api]);
  return choices;
}
