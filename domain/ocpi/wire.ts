import { OCPI_STATUS } from "../schemas/ocpi/common";

/**
 * What every OCPI 2.2.1 request and answer carries on the wire (OCPI 2.2.1 §4
 * "Transport and format", docs/rules/ocpi.md "On the wire"): the token header, the envelope,
 * the timestamps and the status codes. Pure, so that both directions share one definition.
 */

/** An answer refused the OCPI way: an HTTP status and an OCPI status code with its message. */
export class OcpiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = "OcpiError";
  }
}

export const invalidParameters = (message: string) => new OcpiError(400, OCPI_STATUS.invalidParameters, message);
export const unknownLocation = (message = "Unknown location") => new OcpiError(404, OCPI_STATUS.unknownLocation, message);
export const unknownToken = (message = "Unknown token") => new OcpiError(404, OCPI_STATUS.unknownToken, message);
export const unknownObject = (message: string) => new OcpiError(404, OCPI_STATUS.clientError, message);
/** An unknown token, or a token A outside the handshake: 401 (OCPI 2.2.1 §4.1.2, §7.1). */
export const unauthorized = (message = "Unknown or revoked token") => new OcpiError(401, OCPI_STATUS.clientError, message);
export const methodNotAllowed = (message: string) => new OcpiError(405, OCPI_STATUS.clientError, message);

const b64encode = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

function b64decode(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 === 1) return undefined;
  try {
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    // A token is printable ASCII (OCPI 2.2.1 §16.1 string); anything else was not base64 of one.
    return /^[\x20-\x7e]+$/.test(decoded) ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** `Authorization: Token <base64 of the token>` (OCPI 2.2.1 §4.1.3 encodes it). */
export const tokenHeader = (token: string) => `Token ${b64encode(token)}`;

/**
 * The tokens an Authorization header may stand for: the base64-decoded form (2.2.1) and the
 * header's text as sent (2.1.1-era partners send the token plain). Either may match.
 */
export function tokensOfHeader(header: string | null | undefined): string[] {
  const match = /^Token\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match) return [];
  const sent = match[1];
  const decoded = b64decode(sent);
  return decoded && decoded !== sent ? [decoded, sent] : [sent];
}

/** DateTime as OCPI writes it: RFC 3339 in UTC, seconds precision (OCPI 2.2.1 §16.2). */
export const ocpiTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export function envelopeOf(data: unknown, now: number, statusCode: number = OCPI_STATUS.success, statusMessage?: string) {
  return {
    ...(data !== undefined && { data }),
    status_code: statusCode,
    ...(statusMessage !== undefined && { status_message: statusMessage }),
    timestamp: ocpiTime(now),
  };
}

/** The first problem of a refused object, as a status message a partner's engineer can act on. */
export function reasonOf(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  if (!first) return "Invalid or missing parameters";
  const where = first.path.map(String).join(".");
  return where ? `${where}: ${first.message}` : first.message;
}
