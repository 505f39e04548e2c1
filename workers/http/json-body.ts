import { Invalid, PayloadTooLarge } from "../../domain/errors";

/**
 * JSON bodies, strictly (docs/rules/input.md). A route that declares a body refuses a missing
 * or empty body, a JSON `null`, malformed JSON and a non-JSON content type with 400 before
 * anything runs, so a half-typed request can never be read as `{}` and change something. Bodies
 * over 1 MB are refused with 413 while they are read, without buffering the rest.
 */
export const JSON_BODY_LIMIT = 1024 * 1024;

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new PayloadTooLarge("errors.payloadTooLarge", { limit: "1 MB" });
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

export async function readJsonBody(request: Request, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLarge("errors.payloadTooLarge", { limit: "1 MB" });
  const text = request.body ? await readLimited(request.body, limit) : "";
  if (!text.trim()) throw new Invalid("errors.bodyMissing");
  if (!JSON_TYPE.test(request.headers.get("Content-Type") ?? "")) throw new Invalid("errors.bodyNotJson");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Invalid("errors.bodyMalformed");
  }
  if (value === null) throw new Invalid("errors.bodyMissing");
  return value;
}
