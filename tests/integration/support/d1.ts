import { env } from "cloudflare:test";

/** What a request or a charger left in D1, read straight with SQL. */

/** The first row the query gives, or null. */
export const row = <T = Record<string, unknown>>(query: string, ...args: unknown[]) => env.DB.prepare(query).bind(...args).first<T>();

/** Every row the query gives. */
export const rows = async <T = Record<string, unknown>>(query: string, ...args: unknown[]) => (await env.DB.prepare(query).bind(...args).all<T>()).results;
