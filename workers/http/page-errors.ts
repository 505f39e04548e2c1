import { data, type ServerBuild } from "react-router";
import { AppError } from "../../domain/errors";

/**
 * The page a console route shows for a typed error that its loader or action let through
 * (docs/rules/console.md): another tenant's id or a missing record is the 404 page, a verb's
 * Forbidden the 'insufficient permissions' page, and an address whose id is malformed names no
 * page either. Anything else stays an error (500).
 */
export function pageStatus(error: unknown, loading: boolean): 403 | 404 | undefined {
  if (error instanceof AppError && (error.status === 403 || error.status === 404)) return error.status;
  const invalid = (error instanceof Error && error.name === "ZodError") || (error instanceof AppError && error.status === 400);
  return invalid && loading ? 404 : undefined;
}

type Handler = (...args: never[]) => unknown;

/**
 * The bodies a console action reads: what React Router's forms and fetchers send (its four
 * `encType`s). An action that fails on a request without one, or with another, answers 400: it
 * failed reading what no form sends, which is the caller's mistake, not the server's
 * (docs/rules/input.md "Console input"). An action that reads no body, such as the logout, still
 * runs, and its own checks (the same-origin 403 first) answer as they do.
 */
const FORM_BODY = /^(application\/x-www-form-urlencoded|multipart\/form-data|application\/json|text\/plain)\s*(;|$)/i;

const actionBodyReadable = (request: Request) => FORM_BODY.test(request.headers.get("Content-Type") ?? "");

function answeringStatus<F extends Handler>(handler: F, loading: boolean): F {
  return (async (...args: Parameters<F>) => {
    try {
      return await handler(...args);
    } catch (error) {
      const { request } = (args[0] ?? {}) as { request?: Request };
      const unreadable = !loading && request !== undefined && !actionBodyReadable(request);
      // An action's input refused where the action does not answer it itself (its form read before its `try`) is the caller's 400 too.
      const refused = !loading && error instanceof AppError && error.status === 400;
      const status = pageStatus(error, loading) ?? ((unreadable && error instanceof Error) || refused ? 400 : undefined);
      if (status === undefined) throw error;
      throw data(null, { status });
    }
  }) as F;
}

const wrapped = new WeakMap<ServerBuild, ServerBuild>();

/**
 * The server build with every route's loader and action mapping typed errors to status
 * responses. React Router shows any other thrown Error as a bare 500 in production, so this is
 * done once for every route here rather than caught page by page; the console's error boundary
 * (app/routes/console/screen-frame.tsx) renders the status inside the shell.
 */
export function withPageErrors(build: ServerBuild): ServerBuild {
  const known = wrapped.get(build);
  if (known) return known;
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const { loader, action } = route.module;
      const module = {
        ...route.module,
        ...(loader && { loader: answeringStatus(loader, true) }),
        ...(action && { action: answeringStatus(action, false) }),
      };
      return [id, { ...route, module }];
    }),
  );
  const result = { ...build, routes };
  wrapped.set(build, result);
  return result;
}
