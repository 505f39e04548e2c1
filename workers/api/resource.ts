import type { z, ZodObject, ZodType } from "zod";
import { idParam, route, type AnyVerb, type InputOf, type Route, type RouteMethod } from "./app";

/** No query or body: what `route()` assumes when a route declares none. */
type NoInput = ZodType<unknown>;

/** The path parameter that names a resource's record, as a one-field object schema: `idParam` (`{id}`) unless the resource says otherwise. */
type KeyParam = ZodObject<Record<string, ZodType>>;
/** The key's name (`id`, `serialNumber`…) and its parsed value. */
type KeyName<S extends KeyParam> = Extract<keyof S["shape"], string>;
type KeyValue<S extends KeyParam> = z.output<S>[KeyName<S>];

/** What a resource's verb is called with after the context: the record's key when the path names it, then the route's input. */
type ArgsOf<Path extends string, I extends ZodType, S extends KeyParam> = [
  ...(Path extends `${string}{${KeyName<S>}}${string}` ? [key: KeyValue<S>] : []),
  ...(unknown extends z.output<I> ? [] : [input: z.output<I>]),
];

/** A verb that can serve `Path` by the convention: it takes the arguments `ArgsOf` gives. */
type VerbFor<Path extends string, I extends ZodType, S extends KeyParam> = AnyVerb & ((ctx: never, ...args: ArgsOf<Path, I, S>) => Promise<unknown>);

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
 * convention most routes share: the verb gets the context, then the record's key when the path
 * names it, then the query of a GET or the body of any other method. The key is `{id}` (parsed by
 * `idParam`) unless `key` names another path parameter with its one-field schema (`serialParam`:
 * `{serialNumber}`). A route that passes anything else (a second path parameter, the request
 * itself, a header, a fixed argument) is declared with `route()` and its own handler. Order
 * matters as in `route()`: fixed paths before the key.
 */
export function resource<Base extends string, S extends KeyParam = typeof idParam>(tag: string, base: Base, key: S = idParam as unknown as S) {
  const keyName = Object.keys(key.shape)[0] as KeyName<S>;
  const at =
    <M extends RouteMethod>(method: M) =>
    <Sub extends string, V extends VerbFor<`${Base}${Sub}`, I, S>, I extends ZodType = NoInput>(sub: Sub, summary: string, verb: V, input?: I) => {
      const path = `${base}${sub}` as const;
      const namesRecord = path.includes(`{${keyName}}`);
      const call = verb as unknown as (ctx: unknown, ...args: unknown[]) => Promise<unknown>;
      return route(
        {
          method,
          path,
          summary,
          tag,
          verb,
          params: namesRecord ? key : undefined,
          query: method === "get" ? input : undefined,
          body: method === "get" ? undefined : input,
        },
        (ctx, { params, query, body }) =>
          call(ctx, ...(namesRecord ? [(params as Record<string, unknown>)[keyName]] : []), ...(input ? [method === "get" ? query : body] : [])),
      ) as unknown as ResourceRoute<M, `${Base}${Sub}`, I, V>;
    };
  const get = at("get");
  const post = at("post");
  const put = at("put");
  const record = `/{${keyName}}` as `/{${KeyName<S>}}`;
  return {
    get,
    post,
    put,
    delete: at("delete"),
    /** `GET base`: the resource's records, paged and filtered by the query. */
    list: <V extends VerbFor<`${Base}`, I, S>, I extends ZodType = NoInput>(summary: string, verb: V, query?: I) => get("", summary, verb, query),
    /** `POST base`: a new record from the body. */
    create: <V extends VerbFor<`${Base}`, I, S>, I extends ZodType = NoInput>(summary: string, verb: V, body?: I) => post("", summary, verb, body),
    /** `GET base/{id}` (or the resource's key): one record. */
    detail: <V extends VerbFor<`${Base}/{${KeyName<S>}}`, NoInput, S>>(summary: string, verb: V) => get(record, summary, verb),
    /** `PUT base/{id}`: the record edited from the body. */
    update: <V extends VerbFor<`${Base}/{${KeyName<S>}}`, I, S>, I extends ZodType = NoInput>(summary: string, verb: V, body?: I) => put(record, summary, verb, body),
    /** `DELETE base/{id}`: the record removed. */
    remove: <V extends VerbFor<`${Base}/{${KeyName<S>}}`, NoInput, S>>(summary: string, verb: V) => at("delete")(record, summary, verb),
  };
}
