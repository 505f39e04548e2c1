import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { PayloadTooLarge } from "../../domain/errors";
import { formatByteLimit } from "../../domain/images";
import { MAX_FILE_BYTES } from "../../domain/stored-files";
import { FRAMING_BYTES } from "../services/files/images";
import { JSON_BODY_LIMIT } from "./json-body";

/**
 * Every body is limited before it is read (docs/rules/input.md "Body size"): 1 MB, as JSON, for
 * forms, webhooks and OCPI; a multipart upload may carry the largest file an upload takes (a
 * stored file, 10 MB, with its framing), and each upload then checks its own kind's limit. A
 * declared `Content-Length` over the limit is refused at once, without reading; a body without
 * one is counted while it is read and refused at the limit.
 */
export const UPLOAD_BODY_LIMIT = MAX_FILE_BYTES + FRAMING_BYTES;

const isUpload = (request: Request) => /^multipart\/form-data\s*(;|$)/i.test(request.headers.get("Content-Type") ?? "");

/** The limit of a request's body, by its content type. */
export const bodyLimitOf = (request: Request) => (isUpload(request) ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT);

/** The error a body over its limit is answered with, the limit in the message. */
export const tooLarge = (request: Request) => new PayloadTooLarge("errors.payloadTooLarge", { limit: formatByteLimit(isUpload(request) ? MAX_FILE_BYTES : JSON_BODY_LIMIT) });

/**
 * Hono's body limit with ours: the request's limit by content type, and a `PayloadTooLarge` the
 * app's `onError` answers (or `refuse`'s error, for an app with its own envelope).
 */
export function limitBodies(refuse: (request: Request) => Error = tooLarge): MiddlewareHandler {
  return (c, next) =>
    bodyLimit({
      maxSize: bodyLimitOf(c.req.raw),
      onError: () => {
        throw refuse(c.req.raw);
      },
    })(c, next);
}
