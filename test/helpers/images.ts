/** Image files for the thumbnail tests, made with sharp, plus hand-built broken and hostile ones. */
import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import sharp from "sharp";

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });

export const pngImage = (width: number, height: number) => solid(width, height).png().toBuffer();
export const webpImage = (width: number, height: number) => solid(width, height).webp().toBuffer();
export const tiffImage = (width: number, height: number) => solid(width, height).tiff().toBuffer();

/** A JPEG stored sideways with EXIF orientation 6: shown upright, it is `height` wide. */
export const rotatedJpeg = (width: number, height: number) => solid(width, height).jpeg().withMetadata({ orientation: 6 }).toBuffer();

/** An animated GIF of `frames` frames. */
export async function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const colours = ["red", "green", "blue", "yellow", "purple"];
  const stills = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 3, background: colours[i % colours.length] } }).png().toBuffer()),
  );
  return sharp(stills, { join: { animated: true } }).gif().toBuffer();
}

/** A PNG whose header is fine but whose pixel data stops short. */
export async function truncatedPng(): Promise<Buffer> {
  const noisy = await sharp(randomBytes(200 * 200 * 3), { raw: { width: 200, height: 200, channels: 3 } }).png().toBuffer();
  return noisy.subarray(0, 2000);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 65-byte PNG claiming to be `side` x `side` pixels: a decompression bomb's header. */
export function bombPng(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const emptyZlib = Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", emptyZlib),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Width, height and frame count of an encoded image. */
export async function describeImage(data: Buffer): Promise<{ format: string | undefined; width: number; height: number; pages: number }> {
  const meta = await sharp(data).metadata();
  return { format: meta.format, width: meta.width ?? 0, height: meta.height ?? 0, pages: meta.pages ?? 1 };
}
