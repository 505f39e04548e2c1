/**
 * What the server could not handle, reported in one shape (docs/architecture.md "Errors"): a
 * single JSON line with `"level":"error"`, where it happened and the error, so that log search,
 * a tail worker and the browser tests (which fail on such a line) can pick it out of everything
 * else the runtime prints.
 */
export function reportError(where: string, error: unknown, detail: Record<string, unknown> = {}) {
  const described = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };
  console.error(JSON.stringify({ level: "error", where, ...detail, error: described }));
}
