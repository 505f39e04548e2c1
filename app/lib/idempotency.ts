import { useCallback, useEffect, useRef } from "react";
import { useFormAction, type FetcherSubmitOptions, type FetcherWithComponents, type SubmitTarget } from "react-router";
import { IDEMPOTENCY_PARAM } from "../../domain/idempotency";

/**
 * The key of a money form's submit (docs/rules/input.md "Idempotency keys"): a fresh one per
 * submit, the same one while that submit is sent again (a retry after a timeout or a refusal, the
 * same request), forgotten once it succeeded so that the next identical submit is a new one.
 */
export function useIdempotencyKey() {
  const last = useRef<{ request: string; key: string } | null>(null);
  const keyFor = useCallback((request: string) => {
    if (last.current?.request !== request) last.current = { request, key: crypto.randomUUID() };
    return last.current.key;
  }, []);
  const succeeded = useCallback(() => {
    last.current = null;
  }, []);
  return { keyFor, succeeded };
}

const describe = (target: SubmitTarget) =>
  JSON.stringify(target instanceof FormData || target instanceof URLSearchParams ? [...target.entries()].map(([k, v]) => [k, String(v)]) : target);

/**
 * `fetcher.submit` for a money form: the key travels as the action's `idempotencyKey` search
 * parameter, because a form post cannot set the `Idempotency-Key` header.
 */
export function useIdempotentSubmit<T>(fetcher: FetcherWithComponents<T>) {
  const formAction = useFormAction();
  const { keyFor, succeeded } = useIdempotencyKey();
  const data = fetcher.data as { ok?: boolean } | undefined;
  useEffect(() => {
    if (fetcher.state === "idle" && data?.ok) succeeded();
  }, [fetcher.state, data, succeeded]);
  const { submit } = fetcher;
  return useCallback(
    (target: SubmitTarget, options: FetcherSubmitOptions & { action?: string } = {}) => {
      const action = new URL(options.action ?? formAction, window.location.origin);
      action.searchParams.set(IDEMPOTENCY_PARAM, keyFor(`${action.pathname} ${options.method ?? "post"} ${describe(target)}`));
      return submit(target, { ...options, action: `${action.pathname}${action.search}` });
    },
    [formAction, keyFor, submit],
  );
}
