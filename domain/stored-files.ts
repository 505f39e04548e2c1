/**
 * Files an operator keeps (docs/rules/maintenance.md "File management"), checked by their content,
 * never by their name or declared type: PDF, PNG, JPEG, Office documents (zip containers: xlsx,
 * docx, pptx) and plain UTF-8 text (txt, csv), at most 10 MB. Pure functions over the bytes.
 */

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface FileKind {
  contentType: string;
  extensions: readonly string[];
}

const KINDS = {
  pdf: { contentType: "application/pdf", extensions: ["pdf"] },
  png: { contentType: "image/png", extensions: ["png"] },
  jpeg: { contentType: "image/jpeg", extensions: ["jpg", "jpeg"] },
  xlsx: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", extensions: ["xlsx"] },
  docx: { contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", extensions: ["docx"] },
  pptx: { contentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation", extensions: ["pptx"] },
  text: { contentType: "text/plain; charset=utf-8", extensions: ["txt", "csv"] },
} satisfies Record<string, FileKind>;

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((b, i) => bytes[i] === b);

const extensionOf = (name: string) => name.toLowerCase().split(".").pop() ?? "";

function isUtf8Text(bytes: Uint8Array) {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a file is, from its first bytes; a zip counts only with an Office extension, text only
 * with txt or csv, so a renamed executable or archive is refused. Undefined: not accepted.
 */
export function detectFile(name: string, bytes: Uint8Array): FileKind | undefined {
  const ext = extensionOf(name);
  const byContent: FileKind | undefined = startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])
    ? KINDS.pdf
    : startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])
      ? KINDS.png
      : startsWith(bytes, [0xff, 0xd8, 0xff])
        ? KINDS.jpeg
        : startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])
          ? [KINDS.xlsx, KINDS.docx, KINDS.pptx].find((k) => k.extensions.includes(ext))
          : isUtf8Text(bytes)
            ? KINDS.text
            : undefined;
  return byContent && byContent.extensions.includes(ext) ? byContent : undefined;
}

/** A file name safe to store and to send back: no path, no control characters, at most 100 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f"]/g, "").trim().slice(-100);
}
