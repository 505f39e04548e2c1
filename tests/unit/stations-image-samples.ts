/**
 * Image files made byte by byte for the upload tests: real, decodable PNGs (grey, 8-bit,
 * stored deflate blocks) and JPEG headers as encoders write them (JFIF/EXIF segments before the
 * frame header, baseline or progressive). Runs in Node, the Workers runtime and the browser tests.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const be16 = (n: number) => [(n >>> 8) & 0xff, n & 0xff];

function concat(parts: (Uint8Array | number[])[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const typed = concat([[...type].map((ch) => ch.charCodeAt(0)), data]);
  return concat([be32(data.length), typed, be32(crc32(typed))]);
}

/** zlib stream of stored (uncompressed) deflate blocks. */
function zlibStored(data: Uint8Array): Uint8Array<ArrayBuffer> {
  const blocks: (Uint8Array | number[])[] = [[0x78, 0x01]];
  for (let at = 0; at < data.length || at === 0; at += 65535) {
    const part = data.subarray(at, at + 65535);
    const final = at + 65535 >= data.length ? 1 : 0;
    blocks.push([final, part.length & 0xff, part.length >>> 8, ~part.length & 0xff, (~part.length >>> 8) & 0xff], part);
    if (final) break;
  }
  blocks.push(be32(adler32(data)));
  return concat(blocks);
}

/** A grey PNG of the given size: a diagonal gradient, so it is visibly an image. */
export function pngImage(width: number, height: number): Uint8Array<ArrayBuffer> {
  const ihdr = new Uint8Array([...be32(width), ...be32(height), 8, 0, 0, 0, 0]);
  const rows = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    rows[y * (width + 1)] = 0;
    for (let x = 0; x < width; x++) rows[y * (width + 1) + 1 + x] = 60 + Math.round((150 * (x + y)) / Math.max(1, width + height - 2));
  }
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return concat([signature, chunk("IHDR", ihdr), chunk("IDAT", zlibStored(rows)), chunk("IEND", new Uint8Array())]);
}

/** A JPEG's header segments up to the first scan, as cameras and encoders write them. */
export function jpegHeader(width: number, height: number, options: { progressive?: boolean; exif?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const app0 = [0xff, 0xe0, ...be16(16), 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, ...be16(72), ...be16(72), 0, 0];
  const exif = options.exif ? [0xff, 0xe1, ...be16(2 + 40), ...new Array<number>(40).fill(0x2a)] : [];
  const dqt = [0xff, 0xdb, ...be16(2 + 65), 0, ...new Array<number>(64).fill(1)];
  const sof = [0xff, options.progressive ? 0xc2 : 0xc0, ...be16(17), 8, ...be16(height), ...be16(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  const sos = [0xff, 0xda, ...be16(12), 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0];
  return new Uint8Array([0xff, 0xd8, ...app0, ...exif, ...dqt, ...sof, ...sos, 0x12, 0x34, 0xff, 0xd9]);
}

/** The same file with bytes appended after its end, which decoders ignore: too large on purpose. */
export function padded(bytes: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  out.set(bytes);
  return out;
}

/** A GIF header: a real image, but not an accepted type. */
export const GIF_HEADER: Uint8Array<ArrayBuffer> = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 16, 0, 16, 0, 0, 0, 0, 0x3b]);
