import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { PayloadTooLarge } from "../../domain/errors";
import { formatByteLimit } from "../../domain/images";
import { MAX_FILE_BYTES } from "../../domain/stored-files";
import { FRAMING_BYTES } from "../services/files/images";
import { readCookie } from "./cookies";
import { JSON_BODY_LIMIT } from "./json-body";

/**
 * Every body is limited before it is read (docs/rules/input.md "Body size"): 1 MB, as JSON, for
 * forms, webhooks and OCPI; a signed-in multipart upload may carry the largest file an upload
 * takes (a stored file, 10 MB, with its framing), and each upload then checks its own kind's
 * limit. Only a request that names a session (the console's cookie or a Bearer token) gets the
 * upload allowance: every upload is a signed-in screen's, so a public page (login, account
 * deletion) never reads more than 1 MB, whatever the body claims to be. A declared
 * `Content-Length` over the limit is refused at once, without reading; a body without one is
 * counted while it is read and refused at the limit.
 */
export const UPLOAD_BODY_LIMIT = MAX_FILE_BYTES + FRAMING_BYTES;

const isMultipart = (request: Request) => /^multipart\/form-data\s*(;|$)/i.test(request.headers.get("Content-Type") ?? "");

/** Whether the request names a session: a Bearer token, or the console's session cookie. */
const namesSession = (request: Request, sessionCookie: string) =>
  (request.headers.get("Authorization") ?? "").startsWith("Bearer ") || readCookie(request, sessionCookie) !== undefined;

/** Where uploads may come from: the console and the API (signed in), never OCPI. */
export type UploadAllowance = { sessionCookie: string } | "none";

const isUpload = (request: Request, uploads: UploadAllowance) =>
  uploads !== "none" && isMultipart(request) && namesSession(request, uploads.sessionCookie);

/** The limit of a request's body: the upload allowance for a signed-in upload, else 1 MB. */
export const bodyLimitOf = (request: Request, uploads: UploadAllowance) => (isUpload(request, uploads) ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT);

/** The error a body over its limit is answered with, the limit in the message. */
const tooLarge = (request: Request, uploads: UploadAllowance) =>
  new PayloadTooLarge("errors.payloadTooLarge", { limit: formatByteLimit(isUpload(request, uploads) ? MAX_FILE_BYTES : JSON_BODY_LIMIT) });

/**
 * Hono's body limit with ours: the request's limit, and a `PayloadTooLarge` the app's `onError`
 * answers (or `refuse`'s error, for an app with its own envelope). `uploads` reads the session
 * cookie's name from the Worker's bindings.
 */
export function limitBodies(
  uploads: (env: Env) => UploadAllowance,
  refuse: (request: Request, uploads: UploadAllowance) => Error = tooLarge,
): MiddlewareHandler<{ Bindings: Env }> {
  return (c, next) => {
    const allowance = uploads(c.env);
    return bodyLimit({
      maxSize: bodyLimitOf(c.req.raw, allowance),
      onError: () => {
        throw refuse(c.req.raw, allowance);
      },
    })(c, next);
  };
}

/** The console's and the API's allowance: uploads from a signed-in request. */
export const signedInUploads = (env: Env): UploadAllowance => ({ sessionCookie: env.SESSION_COOKIE });
