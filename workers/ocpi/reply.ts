import type { Context } from "hono";
import { AppError } from "../../domain/errors";
import { envelopeOf, OcpiError } from "../../domain/ocpi/wire";
import { OCPI_STATUS } from "../../domain/schemas/ocpi/common";
import { readJsonBody } from "../http/json-body";
import type { PartnerCtx } from "../services/context";

/**
 * What every module of the `/ocpi/` wire answers with (docs/rules/ocpi.md "On the wire"): the
 * envelope, the pagination headers of a sender's list, and the body read within its limit.
 */
export type OcpiEnv = { Bindings: Env; Variables: { partner: PartnerCtx; token: string } };

export const reply = (c: Context<OcpiEnv>, data: unknown, statusMessage?: string, status = 200) =>
  c.json(envelopeOf(data, Date.now(), OCPI_STATUS.success, statusMessage), status as 200);

/** The JSON body, or 400/413 with 2001 as OCPI wants it. */
export async function ocpiBody(c: Context<OcpiEnv>) {
  try {
    return await readJsonBody(c.req.raw);
  } catch (error) {
    if (error instanceof AppError) throw new OcpiError(error.status === 413 ? 413 : 400, OCPI_STATUS.invalidParameters, error.status === 413 ? "Body over 1 MB" : "A JSON body is required");
    throw error;
  }
}

/**
 * One page of a sender's list with the pagination headers (OCPI 2.2.1 §4.1.4): `X-Total-Count`,
 * `X-Limit` (our page limit) and a `Link` to the next page while there is one.
 */
export function pagedReply(c: Context<OcpiEnv>, page: { items: unknown[]; total: number; offset: number; limit: number }) {
  const answer = reply(c, page.items);
  answer.headers.set("X-Total-Count", String(page.total));
  answer.headers.set("X-Limit", String(page.limit));
  if (page.offset + page.items.length < page.total) {
    const next = new URL(c.req.url);
    next.searchParams.set("offset", String(page.offset + page.items.length));
    next.searchParams.set("limit", String(page.limit));
    answer.headers.set("Link", `<${next.toString()}>; rel="next"`);
  }
  return answer;
}
