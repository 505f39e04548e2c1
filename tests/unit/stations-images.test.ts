import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkImage, formatByteLimit, readImageHeader } from "../../domain/images";
import { GIF_HEADER, jpegHeader, padded, pngImage } from "./stations-image-samples";

describe("reading an image's type and pixel size from its bytes", () => {
  it("reads width and height from a PNG's IHDR chunk", () => {
    expect(readImageHeader(pngImage(64, 48))).toEqual({ format: "png", width: 64, height: 48 });
    expect(readImageHeader(pngImage(1, 300))).toEqual({ format: "png", width: 1, height: 300 });
  });

  it("makes PNG samples a real decoder accepts (the sample's pixels inflate to its size)", () => {
    const png = pngImage(5, 3);
    const idatAt = png.indexOf(0x49, 33) - 4;
    const length = new DataView(png.buffer).getUint32(idatAt);
    expect(inflateSync(png.subarray(idatAt + 8, idatAt + 8 + length)).length).toBe((5 + 1) * 3);
  });

  it.each([
    ["baseline", { progressive: false }],
    ["progressive", { progressive: true }],
    ["with an EXIF segment first", { exif: true }],
  ])("reads the frame header of a %s JPEG", (_, options) => {
    expect(readImageHeader(jpegHeader(160, 120, options))).toEqual({ format: "jpeg", width: 160, height: 120 });
  });

  it("finds no size in a JPEG that reaches its scan without a frame header", () => {
    const noFrame = new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0xff, 0xd9]);
    expect(readImageHeader(noFrame)).toBeUndefined();
  });

  it.each([
    ["a GIF", GIF_HEADER],
    ["text named .png", new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>")],
    ["a truncated PNG", pngImage(8, 8).subarray(0, 20)],
    ["a truncated JPEG", jpegHeader(8, 8).subarray(0, 30)],
    ["nothing", new Uint8Array()],
  ])("refuses %s as neither PNG nor JPEG", (_, bytes) => {
    expect(readImageHeader(bytes)).toBeUndefined();
  });
});

describe("image limits", () => {
  it("takes a logo of at most 64×64 pixels and 1 MB", () => {
    expect(checkImage("logo", pngImage(64, 64))).toMatchObject({ ok: true, format: "png", contentType: "image/png", extension: "png" });
    expect(checkImage("logo", jpegHeader(32, 64))).toMatchObject({ ok: true, contentType: "image/jpeg", extension: "jpg" });
    expect(checkImage("logo", pngImage(65, 64))).toEqual({ ok: false, problem: "pixels", width: 64, height: 64 });
    expect(checkImage("logo", pngImage(64, 65))).toEqual({ ok: false, problem: "pixels", width: 64, height: 64 });
    expect(checkImage("logo", padded(pngImage(64, 64), 1024 * 1024))).toMatchObject({ ok: true });
    expect(checkImage("logo", padded(pngImage(64, 64), 1024 * 1024 + 1))).toEqual({ ok: false, problem: "bytes", maxBytes: 1024 * 1024 });
  });

  it("takes a map icon of at most 80 KB, whatever its pixel size", () => {
    expect(checkImage("mapIcon", padded(pngImage(200, 200), 80 * 1024))).toMatchObject({ ok: true, width: 200 });
    expect(checkImage("mapIcon", padded(pngImage(10, 10), 80 * 1024 + 1))).toEqual({ ok: false, problem: "bytes", maxBytes: 80 * 1024 });
  });

  it("takes other images of at most 160×160 pixels", () => {
    expect(checkImage("image", jpegHeader(160, 160, { progressive: true }))).toMatchObject({ ok: true });
    expect(checkImage("image", jpegHeader(161, 100))).toEqual({ ok: false, problem: "pixels", width: 160, height: 160 });
  });

  it("checks the type first, so a large GIF is refused for its type", () => {
    expect(checkImage("logo", padded(GIF_HEADER, 2 * 1024 * 1024))).toEqual({ ok: false, problem: "type" });
    expect(checkImage("logo", new Uint8Array())).toEqual({ ok: false, problem: "empty" });
  });

  it("writes byte limits as the messages show them", () => {
    expect(formatByteLimit(1024 * 1024)).toBe("1 MB");
    expect(formatByteLimit(80 * 1024)).toBe("80 KB");
  });
});
