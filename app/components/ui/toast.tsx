import { useEffect, useSyncExternalStore } from "react";
import { useLocation } from "react-router";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { CircleCheck, CircleX, TriangleExclamationPoint, X } from "lucide-react";
import { cn } from "~/lib/cn";
import { sessionRefusalOf } from "../../../domain/session-refusals";

/**
 * A small toast store that lives at module level, so loaders' callers, fetch wrappers and event
 * handlers can raise a toast without a hook. `<Toaster/>` renders it.
 */
export type ToastKind = "success" | "warning" | "error";

export interface ToastItem {
  id: number;
  kind: ToastKind;
  message: string;
  /** The page it was raised on: an error is about that page and goes when the user leaves it. */
  path: string;
}

const DURATION_MS: Record<ToastKind, number> = { success: 3000, warning: 4500, error: 5000 };
const MAX_VISIBLE = 4;
/** The 401 message is shown once, repeats within a second are dropped (docs/rules/console.md "Messages and toasts"). */
const UNAUTHORIZED_QUIET_MS = 1000;

const NO_TOASTS: readonly ToastItem[] = [];
let items: readonly ToastItem[] = NO_TOASTS;
let nextId = 1;
let lastUnauthorizedAt = Number.NEGATIVE_INFINITY;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function emit() {
  for (const listener of listeners) listener();
}

function forget(id: number) {
  clearTimeout(timers.get(id));
  timers.delete(id);
}

function dismiss(id: number) {
  if (!items.some((item) => item.id === id)) return;
  forget(id);
  items = items.filter((item) => item.id !== id);
  emit();
}

function show(kind: ToastKind, message: string): number {
  // Only one error toast at a time, the newest replaces the old one; any identical toast still
  // showing is replaced too, so a burst of failures does not stack copies (docs/rules/console.md
  // "Messages and toasts").
  const replaced = items.filter((item) => (kind === "error" && item.kind === "error") || (item.kind === kind && item.message === message));
  replaced.forEach((item) => forget(item.id));
  const id = nextId++;
  const kept = items.filter((item) => !replaced.includes(item));
  items = [...kept, { id, kind, message, path: window.location.pathname }].slice(-MAX_VISIBLE);
  timers.set(
    id,
    setTimeout(() => dismiss(id), DURATION_MS[kind]),
  );
  emit();
  return id;
}

/** A stale error toast is cleared when the page changes; successes and warnings may be about the new page. */
const staleOn = (path: string) => (item: ToastItem) => item.kind === "error" && item.path !== path;

function clearStale(path: string) {
  items.filter(staleOn(path)).forEach((item) => dismiss(item.id));
}

export const toast = {
  success: (message: string) => show("success", message),
  warning: (message: string) => show("warning", message),
  error: (message: string) => show("error", message),
  dismiss,
};

/** What a request ended with: an HTTP status, no response at all, or the client's time-out. */
export type HttpFailure = number | "none" | "timeout";

const CATALOGUED = new Set([400, 401, 403, 404, 408, 500, 501, 502, 503, 504, 505]);

/**
 * The catalogue key for a failure (docs/rules/console.md "Messages and toasts"); uncatalogued
 * statuses fall back to their class.
 */
export function httpMessageKey(failure: HttpFailure): string {
  if (failure === "timeout") return "http.timeout";
  if (failure === "none" || failure === 0) return "http.none";
  if (CATALOGUED.has(failure)) return `http.${failure}`;
  return failure >= 500 ? "http.500" : "http.400";
}

/** Shows the error toast for a failed request: the server's message when it sent one, else the catalogue's. */
export function notifyHttpError(t: TFunction, failure: HttpFailure, message?: string) {
  if (failure === 401) {
    const now = Date.now();
    if (now - lastUnauthorizedAt < UNAUTHORIZED_QUIET_MS) return;
    lastUnauthorizedAt = now;
  }
  toast.error(message?.trim() ? message : t(httpMessageKey(failure)));
}

/**
 * A message another page handed over as `?msg=`: the guard's, and why a session was refused
 * (docs/rules/console.md "Messages and toasts"), show as a warning.
 */
export function showHandedMessage(t: TFunction, msg: string | null) {
  if (msg && (msg.startsWith("guard.") || sessionRefusalOf(msg))) toast.warning(t(msg));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getSnapshot = () => items;
const getServerSnapshot = () => NO_TOASTS;

const KIND_STYLE: Record<ToastKind, { icon: typeof CircleCheck; className: string }> = {
  success: { icon: CircleCheck, className: "text-success" },
  warning: { icon: TriangleExclamationPoint, className: "text-warning" },
  error: { icon: CircleX, className: "text-destructive" },
};

function ToastCard({ item, closeLabel }: { item: ToastItem; closeLabel: string }) {
  const { icon: Icon, className } = KIND_STYLE[item.kind];
  return (
    <li
      data-kind={item.kind}
      className="pointer-events-auto flex w-full animate-toast-in items-start gap-3 rounded-lg border bg-popover py-3 pr-2 pl-3.5 text-sm text-popover-foreground shadow-lg"
    >
      <Icon className={cn("mt-0.5 size-4 shrink-0", className)} aria-hidden />
      <p role={item.kind === "success" ? "status" : "alert"} className="min-w-0 flex-1 leading-5 break-words">
        {item.message}
      </p>
      <button
        type="button"
        onClick={() => dismiss(item.id)}
        aria-label={closeLabel}
        className="-my-1 rounded-sm p-1 text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <X className="size-4" aria-hidden />
      </button>
    </li>
  );
}

/** Renders the toasts; mount once, near the root. */
export function Toaster() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // Not shown from the first render of the new page on, and then forgotten.
  const visible = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot).filter((item) => !staleOn(pathname)(item));
  useEffect(() => clearStale(pathname), [pathname]);
  return (
    <section
      aria-label={t("ui.toast.region")}
      className="pointer-events-none fixed inset-x-0 top-4 z-[100] flex justify-center px-4"
    >
      <ol className="flex w-full max-w-sm flex-col gap-2">
        {visible.map((item) => (
          <ToastCard key={item.id} item={item} closeLabel={t("ui.action.close")} />
        ))}
      </ol>
    </section>
  );
}
