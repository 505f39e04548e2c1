import type { z, ZodType } from "zod";
import { idParam, route, type AnyVerb, type InputOf, type Route, type RouteMethod } from "./app";

/** No query or body: what `route()` assumes when a route declares none. */
type NoInput = ZodType<unknown>;

/** What a resource's verb is called with after the context: the record's id when the path names `{id}`, then the route's input. */
type ArgsOf<Path extends string, I extends ZodType> = [
  ...(Path extends `${string}{id}${string}` ? [id: number] : []),
  ...(unknown extends z.output<I> ? [] : [input: z.output<I>]),
];

/** A verb that can serve `Path` by the convention: it takes the arguments `ArgsOf` gives. */
type VerbFor<Path extends string, I extends ZodType> = AnyVerb & ((ctx: never, ...args: ArgsOf<Path, I>) => Promise<unknown>);

/** The route's types for the console's client, as `route()` gives them: a GET's input is its query, any other method's its body. */
type ResourceRoute<M extends RouteMethod, Path extends string, I extends ZodType, V extends AnyVerb> = Route<
  M,
  Path,
  M extends "get" ? InputOf<I> : undefined,
  M extends "get" ? undefined : InputOf<I>,
  Awaited<ReturnType<V>>
>;

/**
 * The routes of one resource, each a line naming its path below the resource, what it does, its
 * verb and its input (docs/decisions/0101-routes-declared-by-resource.md). The handler follows the
 * convention most routes share: the verb gets the context, then the record's id when the path names
 * `{id}` (parsed by `idParam`), then the query of a GET or the body of any other method. A route that
 * passes anything else (another path parameter, the request itself, a header) is declared with
 * `route()` and its own handler. Order matters as in `route()`: fixed paths before `{id}`.
 */
export function resource<Base extends string>(tag: string, base: Base) {
  const at =
    <M extends RouteMethod>(method: M) =>
    <Sub extends string, V extends VerbFor<`${Base}${Sub}`, I>, I extends ZodType = NoInput>(sub: Sub, summary: string, verb: V, input?: I) => {
      const path = `${base}${sub}` as const;
      const namesRecord = path.includes("{id}");
      const call = verb as unknown as (ctx: unknown, ...args: unknown[]) => Promise<unknown>;
      return route(
        {
          method,
          path,
          summary,
          tag,
          verb,
          params: namesRecord ? idParam : undefined,
          query: method === "get" ? input : undefined,
          body: method === "get" ? undefined : input,
        },
        (ctx, { params, query, body }) => call(ctx, ...(namesRecord ? [params.id] : []), ...(input ? [method === "get" ? query : body] : [])),
      ) as unknown as ResourceRoute<M, `${Base}${Sub}`, I, V>;
    };
  const get = at("get");
  const post = at("post");
  const put = at("put");
  return {
    get,
    post,
    put,
    delete: at("delete"),
    /** `GET base`: the resource's records, paged and filtered by the query. */
    list: <V extends VerbFor<`${Base}`, I>, I extends ZodType = NoInput>(summary: string, verb: V, query?: I) => get("", summary, verb, query),
    /** `POST base`: a new record from the body. */
    create: <V extends VerbFor<`${Base}`, I>, I extends ZodType = NoInput>(summary: string, verb: V, body?: I) => post("", summary, verb, body),
    /** `GET base/{id}`: one record. */
    detail: <V extends VerbFor<`${Base}/{id}`, NoInput>>(summary: string, verb: V) => get("/{id}", summary, verb),
    /** `PUT base/{id}`: the record edited from the body. */
    update: <V extends VerbFor<`${Base}/{id}`, I>, I extends ZodType = NoInput>(summary: string, verb: V, body?: I) => put("/{id}", summary, verb, body),
    /** `DELETE base/{id}`: the record removed. */
    remove: <V extends VerbFor<`${Base}/{id}`, NoInput>>(summary: string, verb: V) => at("delete")("/{id}", summary, verb),
  };
}
