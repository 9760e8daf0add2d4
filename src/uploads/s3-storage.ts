/**
 * Uploads in an S3-compatible bucket (issue 7, item 3), through the official AWS SDK. The object
 * key is the path id. Writes stream: a file that fits in one part is sent with one PutObject;
 * anything larger goes up as a multipart upload, one 8 MiB part at a time, so at most one part is
 * held in memory, and a failed upload is aborted so no parts are left behind.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import type { S3Config } from "../config.js";
import { checkPathId } from "./names.js";
import type { ByteRange, StoredFile, UploadStorage } from "./storage.js";

/** S3's minimum part size is 5 MiB (except the last part). */
export const PART_SIZE = 8 * 1024 * 1024;

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
};

export class S3Storage implements UploadStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials ?? undefined,
      // Checksums only where S3 requires them: many S3-compatible services reject the newer ones.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private key(pathId: string): string {
    checkPathId(pathId);
    return pathId;
  }

  async put(pathId: string, body: Readable, contentType: string): Promise<StoredFile> {
    const target = { Bucket: this.bucket, Key: this.key(pathId) };
    let uploadId: string | undefined;
    const parts: Array<{ ETag: string | undefined; PartNumber: number }> = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let size = 0;
    const flushPart = async () => {
      uploadId ??= (await this.client.send(new CreateMultipartUploadCommand({ ...target, ContentType: contentType }))).UploadId;
      const PartNumber = parts.length + 1;
      const part = await this.client.send(new UploadPartCommand({ ...target, UploadId: uploadId, PartNumber, Body: Buffer.concat(pending) }));
      parts.push({ ETag: part.ETag, PartNumber });
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        // Parts are exactly PART_SIZE (but the last), however the stream happens to chunk the bytes.
        for (let at = 0; at < chunk.length; ) {
          const take = Math.min(chunk.length - at, PART_SIZE - pendingBytes);
          pending.push(chunk.subarray(at, at + take));
          pendingBytes += take;
          at += take;
          if (pendingBytes === PART_SIZE) await flushPart();
        }
      }
      if (uploadId === undefined) {
        await this.client.send(new PutObjectCommand({ ...target, Body: Buffer.concat(pending), ContentType: contentType, ContentLength: size }));
        return { size };
      }
      if (pendingBytes > 0) await flushPart();
      await this.client.send(new CompleteMultipartUploadCommand({ ...target, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      return { size };
    } catch (err) {
      if (uploadId !== undefined) {
        await this.client.send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId })).catch(() => undefined);
      }
      throw err;
    }
  }

  async get(pathId: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.key(pathId), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async stat(pathId: string): Promise<StoredFile | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(pathId) }));
      return { size: Number(res.ContentLength ?? 0) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(pathId: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(pathId) }));
  }
}
