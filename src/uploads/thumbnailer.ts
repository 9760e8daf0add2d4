/**
 * Image decoding and resizing for thumbnails (issue 7), with sharp (libvips), under the limits
 * Zulip applies (zerver/lib/thumbnail.py):
 * - only files whose first bytes say JPEG, PNG, GIF, WebP, AVIF or TIFF reach the decoder, whatever
 *   their declared type (Zulip blocks every other libvips loader; SVG and HEIC are left out here:
 *   SVG is a rendering engine, and sharp's prebuilt libvips reads no HEIC);
 * - a still image over IMAGE_BOMB_TOTAL_PIXELS (90 megapixels, about a quarter GiB decoded) is
 *   refused from its header, before any decoding, and libvips is told the same limit
 *   (`limitInputPixels`) in case a header lies; an animation is cut to the frames that fit a third of
 *   that budget, and refused when even three frames do not;
 * - at most one image is processed at a time per process (THUMBNAIL_CONCURRENCY), users taking
 *   turns (FairGate), each operation has a time limit, and the libvips operation cache is off, so
 *   CPU and memory stay bounded.
 */
import type { Metadata, Sharp, SharpOptions } from "sharp";
import type { ThumbnailFormat } from "./thumbnail-formats.js";

export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;
export const IMAGE_MAX_ANIMATED_PIXELS = IMAGE_BOMB_TOTAL_PIXELS / 3;
/** Larger files are not read into memory to be thumbnailed; their links get no preview. */
export const MAX_THUMBNAIL_SOURCE_BYTES = 50 * 1024 * 1024;
const THUMBNAIL_CONCURRENCY = 1;
const MAX_WAITING_PER_USER = 20;
const OPERATION_TIMEOUT_SECONDS = 30;

type SharpFactory = (input: Buffer, options: SharpOptions) => Sharp;
let sharpLoaded: Promise<SharpFactory> | null = null;

/**
 * sharp, loaded on first use: loading libvips takes most of 100 ms, which a process that never
 * sees an image (and every test process) should not pay.
 */
function loadSharp(): Promise<SharpFactory> {
  sharpLoaded ??= import("sharp").then(({ default: sharp }) => {
    // The cache only helps repeated operations on the same input, which thumbnailing never does.
    sharp.cache(false);
    return (input, options) => sharp(input, options);
  });
  return sharpLoaded;
}

/** The file is not an image we can thumbnail (Zulip's BadImageError). */
export class BadImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BadImageError";
  }
}

/** An image as shown: orientation applied, so a rotated phone photo reports its upright size. */
export interface ImageInfo {
  contentType: string;
  width: number;
  height: number;
  frames: number;
}

export interface RenderedThumbnail {
  data: Buffer;
  width: number;
  height: number;
}

const startsWith = (data: Buffer, at: number, bytes: readonly number[]) => bytes.every((b, i) => data[at + i] === b);
const ascii = (data: Buffer, at: number, text: string) => data.subarray(at, at + text.length).toString("latin1") === text;

/** The image type the first bytes show, among those thumbnailed; null for anything else. */
export function sniffImageType(data: Buffer): string | null {
  if (startsWith(data, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(data, 0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (ascii(data, 0, "GIF87a") || ascii(data, 0, "GIF89a")) return "image/gif";
  if (ascii(data, 0, "RIFF") && ascii(data, 8, "WEBP")) return "image/webp";
  if (ascii(data, 4, "ftypavif") || ascii(data, 4, "ftypavis")) return "image/avif";
  if (startsWith(data, 0, [0x49, 0x49, 0x2a, 0x00]) || startsWith(data, 0, [0x4d, 0x4d, 0x00, 0x2a])) return "image/tiff";
  return null;
}

/**
 * Reads the header: the image's type, upright size and frame count. Throws BadImageError for
 * anything that is not a thumbnailable image or is over the pixel limits.
 */
export async function probeImage(data: Buffer): Promise<ImageInfo> {
  const contentType = sniffImageType(data);
  if (contentType === null) throw new BadImageError("Could not decode image; did you upload an image file?");
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw new BadImageError("Could not decode image; did you upload an image file?");
  }
  const { width, height } = meta.autoOrient ?? meta;
  const frames = meta.pages ?? 1;
  if (!width || !height) throw new BadImageError("Could not decode image; did you upload an image file?");
  const framesBudgeted = frames === 1 ? 1 : Math.min(3, frames);
  const limit = frames === 1 ? IMAGE_BOMB_TOTAL_PIXELS : IMAGE_MAX_ANIMATED_PIXELS;
  if (width * height * framesBudgeted > limit) throw new BadImageError("Image size exceeds limit.");
  return { contentType, width, height, frames };
}

/** How many frames an animated thumbnail keeps: all that fit IMAGE_MAX_ANIMATED_PIXELS. */
function framesToRender(image: ImageInfo, format: ThumbnailFormat): number {
  if (image.frames === 1 || !format.animated) return 1;
  const perFrame = image.width * image.height;
  return perFrame * image.frames < IMAGE_MAX_ANIMATED_PIXELS ? -1 : Math.max(1, Math.floor(IMAGE_MAX_ANIMATED_PIXELS / perFrame));
}

/** Scales the image down (never up) to fit the format's box and encodes it. */
export async function renderThumbnail(data: Buffer, image: ImageInfo, format: ThumbnailFormat): Promise<RenderedThumbnail> {
  const sharp = await loadSharp();
  try {
    const { data: out, info } = await sharp(data, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS, pages: framesToRender(image, format) })
      .rotate()
      .resize({ width: format.maxWidth, height: format.maxHeight, fit: "inside", withoutEnlargement: true })
      .webp()
      .timeout({ seconds: OPERATION_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    return { data: out, width: info.width, height: info.pageHeight ?? info.height };
  } catch (err) {
    throw new BadImageError(`Image is corrupted or truncated (${(err as Error).message})`);
  }
}

/**
 * The first frame of an animation as a PNG (Zulip's still image of an animated custom emoji), or
 * null when the image is not animated or cannot be read: such an image simply has no still.
 * Holds a thumbnail slot, so it shares the limits above.
 */
export async function renderStillFrame(data: Buffer, userKey: string): Promise<Buffer | null> {
  return withThumbnailSlot(userKey, async () => {
    let image: ImageInfo;
    try {
      image = await probeImage(data);
    } catch (err) {
      if (err instanceof BadImageError) return null;
      throw err;
    }
    if (image.frames === 1) return null;
    const sharp = await loadSharp();
    try {
      return await sharp(data, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS, pages: 1 }).png().timeout({ seconds: OPERATION_TIMEOUT_SECONDS }).toBuffer();
    } catch {
      return null;
    }
  }).catch((err: unknown) => {
    // Past the user's waiting limit the emoji simply gets no still.
    if (err instanceof BadImageError) return null;
    throw err;
  });
}

/**
 * A gate letting `limit` tasks run at once, taking waiting tasks from each key (user) in turn:
 * one user's queue of decompression-heavy images delays another user's next image by at most one
 * task per user ahead of it, not by the whole queue (issue 16, F14: a 50×50 upload waited 3-6 s
 * behind six threads of 88-megapixel PNGs). Each key may hold at most `maxWaitingPerKey` waiting
 * tasks; past that the task is refused (the upload gets no thumbnail, as for any image we cannot
 * process).
 */
export class FairGate {
  private running = 0;
  /** Waiting tasks per key; a Map iterates in insertion order, which makes the rotation. */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(
    private readonly limit: number,
    private readonly maxWaitingPerKey: number,
  ) {}

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      const queue = this.waiting.get(key) ?? [];
      if (queue.length >= this.maxWaitingPerKey) throw new BadImageError("Too many images are waiting to be processed.");
      await new Promise<void>((resolve) => {
        queue.push(resolve);
        this.waiting.set(key, queue);
      });
    } else this.running += 1;
    try {
      return await task();
    } finally {
      this.startNext(key);
    }
  }

  /** Hands the finished task's slot to the first key in the rotation; the key that just ran goes last. */
  private startNext(finishedKey: string): void {
    const own = this.waiting.get(finishedKey);
    if (own) {
      this.waiting.delete(finishedKey);
      this.waiting.set(finishedKey, own);
    }
    const next = this.waiting.entries().next();
    if (next.done) {
      this.running -= 1;
      return;
    }
    const [key, queue] = next.value;
    const resolve = queue.shift() as () => void;
    this.waiting.delete(key);
    if (queue.length > 0) this.waiting.set(key, queue);
    resolve();
  }
}

/**
 * Process-wide on purpose: the CPU and memory it protects belong to the process, however many apps
 * (tests build several) share it.
 */
const gate = new FairGate(THUMBNAIL_CONCURRENCY, MAX_WAITING_PER_USER);

/** Runs thumbnail work for `userKey` under the process's concurrency limit, users taking turns. */
export function withThumbnailSlot<T>(userKey: string, task: () => Promise<T>): Promise<T> {
  return gate.run(userKey, task);
}
