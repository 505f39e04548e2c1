/**
 * Uploaded images are checked by their content, not by their name or declared type
 * (docs/rules/input.md "Uploads": JPG/PNG only; a logo at most 1 MB and 64×64 px, a map icon
 * at most 80 KB, other images 160×160 px). Pure functions over the file's bytes.
 */

export type ImageFormat = "png" | "jpeg";

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16 = (bytes: Uint8Array, at: number) => (bytes[at] << 8) | bytes[at + 1];
const u32 = (bytes: Uint8Array, at: number) => ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];

/** PNG: the signature, then the IHDR chunk first, whose data starts with width and height. */
function pngHeader(bytes: Uint8Array): ImageHeader | undefined {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return undefined;
  const chunkType = String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]);
  if (chunkType !== "IHDR") return undefined;
  const width = u32(bytes, 16);
  const height = u32(bytes, 20);
  return width > 0 && height > 0 ? { format: "png", width, height } : undefined;
}

/** Start-of-frame markers carry the pixel size; C4 (DHT), C8 (JPG) and CC (DAC) do not. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * JPEG: SOI (FF D8), then marker segments until a start-of-frame segment, whose data is
 * precision (1 byte), height (2) and width (2). Markers without a length (RSTn, TEM) are skipped;
 * reaching the scan (SOS) or the end (EOI) first means there is no frame header.
 */
function jpegHeader(bytes: Uint8Array): ImageHeader | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    while (bytes[at] === 0xff && at < bytes.length) at++;
    const marker = bytes[at++];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd9 || marker === 0xda || at + 2 > bytes.length) return undefined;
    const length = u16(bytes, at);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (at + 7 > bytes.length) return undefined;
      const height = u16(bytes, at + 3);
      const width = u16(bytes, at + 5);
      return width > 0 && height > 0 ? { format: "jpeg", width, height } : undefined;
    }
    at += length;
  }
  return undefined;
}

/** The format and pixel size read from a file's first bytes, or undefined for anything but PNG or JPEG. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  return pngHeader(bytes) ?? jpegHeader(bytes);
}

/** What an image is for decides its limits (docs/rules/input.md "Uploads"). */
export const IMAGE_KINDS = ["logo", "mapIcon", "image"] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export interface ImageLimits {
  maxBytes: number;
  /** Largest width and height in pixels; no limit when absent. */
  maxPixels?: { width: number; height: number };
}

const KB = 1024;
const MB = 1024 * KB;

export const IMAGE_LIMITS: Record<ImageKind, ImageLimits> = {
  logo: { maxBytes: MB, maxPixels: { width: 64, height: 64 } },
  mapIcon: { maxBytes: 80 * KB },
  // Other images get the logo's 1 MB (docs/rules/input.md "Uploads").
  image: { maxBytes: MB, maxPixels: { width: 160, height: 160 } },
};

export type ImageProblem =
  { problem: "empty" } | { problem: "type" } | { problem: "bytes"; maxBytes: number } | { problem: "pixels"; width: number; height: number };

export type ImageCheck = ({ ok: true } & ImageHeader & { contentType: string; extension: string }) | ({ ok: false } & ImageProblem);

/** The size check alone, so an upload can be refused before its body is read. */
export function tooLarge(kind: ImageKind, byteLength: number): boolean {
  return byteLength > IMAGE_LIMITS[kind].maxBytes;
}

/** Checks an upload for its kind: type by magic bytes, then file size, then pixel size. */
export function checkImage(kind: ImageKind, bytes: Uint8Array): ImageCheck {
  const limits = IMAGE_LIMITS[kind];
  if (bytes.length === 0) return { ok: false, problem: "empty" };
  const header = readImageHeader(bytes);
  if (!header) return { ok: false, problem: "type" };
  if (bytes.length > limits.maxBytes) return { ok: false, problem: "bytes", maxBytes: limits.maxBytes };
  if (limits.maxPixels && (header.width > limits.maxPixels.width || header.height > limits.maxPixels.height)) {
    return { ok: false, problem: "pixels", ...limits.maxPixels };
  }
  return {
    ok: true,
    ...header,
    contentType: header.format === "png" ? "image/png" : "image/jpeg",
    extension: header.format === "png" ? "png" : "jpg",
  };
}

/** "1 MB", "80 KB": a byte limit as the messages show it. */
export function formatByteLimit(bytes: number): string {
  return bytes >= MB && bytes % MB === 0 ? `${bytes / MB} MB` : `${Math.round(bytes / KB)} KB`;
}
