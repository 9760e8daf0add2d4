/**
 * Where upload bytes live (issue 7, item 3): the local disk under UPLOADS_DIR, or an S3-compatible
 * bucket when S3_BUCKET is set. Every backend streams in both directions, so no file is ever held
 * whole in memory, and addresses files only by path id, checked (names.ts) before anything else.
 */
import type { Readable } from "node:stream";
import type { Config, S3Config } from "../config.js";
import { LocalDiskStorage } from "./local-storage.js";

/** An inclusive byte range, as in an HTTP `Range` header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredFile {
  size: number;
}

export interface UploadStorage {
  /**
   * Streams `body` to `pathId` and resolves once it is stored whole. A failed or aborted write
   * leaves nothing at `pathId`.
   */
  put(pathId: string, body: Readable, contentType: string): Promise<StoredFile>;
  /** The file's bytes (or one range of them); null when there is no such file. */
  get(pathId: string, range?: ByteRange): Promise<Readable | null>;
  stat(pathId: string): Promise<StoredFile | null>;
  /** Removes the file; removing a missing file is not an error. */
  delete(pathId: string): Promise<void>;
}

/**
 * Loads the S3 backend on first use: the AWS SDK takes most of a second to import, which a server
 * storing files on disk (and every test process) should not pay.
 */
class LazyS3Storage implements UploadStorage {
  private backend: Promise<UploadStorage> | null = null;

  constructor(private readonly config: S3Config) {}

  private load(): Promise<UploadStorage> {
    this.backend ??= import("./s3-storage.js").then(({ S3Storage }) => new S3Storage(this.config));
    return this.backend;
  }

  async put(pathId: string, body: Readable, contentType: string) {
    return (await this.load()).put(pathId, body, contentType);
  }
  async get(pathId: string, range?: ByteRange) {
    return (await this.load()).get(pathId, range);
  }
  async stat(pathId: string) {
    return (await this.load()).stat(pathId);
  }
  async delete(pathId: string) {
    return (await this.load()).delete(pathId);
  }
}

/**
 * One backend per configuration, so a backend holding connections (the S3 client) is built once
 * and shared by every request and job of the app that owns that configuration.
 */
const backends = new WeakMap<Config, UploadStorage>();

export function uploadStorage(config: Config): UploadStorage {
  let backend = backends.get(config);
  if (!backend) {
    backend = config.s3 ? new LazyS3Storage(config.s3) : new LocalDiskStorage(config.uploadsDir);
    backends.set(config, backend);
  }
  return backend;
}
