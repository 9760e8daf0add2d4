/**
 * Uploads in an S3 bucket (issue 7, item 3). No S3-compatible server is installed here (none is
 * packaged in Debian; npm's `s3rver` is not a dependency), so the AWS SDK's own mock layer
 * (aws-sdk-client-mock) stands in for the bucket: every command the backend sends lands in an
 * in-memory bucket below that behaves like S3 for these commands (ranges, multipart parts, 404s).
 */
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { after, before, beforeEach, describe, it } from "node:test";
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
import { mockClient } from "aws-sdk-client-mock";
import { PART_SIZE } from "../../src/uploads/s3-storage.js";
import { uploadStorage } from "../../src/uploads/storage.js";
import { describeImage, pngImage } from "../helpers/images.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, fetchUrl, uploadFile, uploadParts, type UploadRealm } from "../helpers/uploads.js";

const BUCKET = "parley-test-uploads";
const s3 = mockClient(S3Client);
const objects = new Map<string, { body: Buffer; contentType?: string }>();
const multipart = new Map<string, { key: string; contentType?: string; parts: Map<number, Buffer> }>();

const noSuchKey = () => Object.assign(new Error("The specified key does not exist."), { name: "NoSuchKey", $metadata: { httpStatusCode: 404 } });

function installBucket(): void {
  s3.reset();
  objects.clear();
  multipart.clear();
  s3.on(PutObjectCommand).callsFake((input) => {
    assert.equal(input.Bucket, BUCKET);
    objects.set(input.Key, { body: Buffer.from(input.Body), contentType: input.ContentType });
    return { ETag: '"etag"' };
  });
  s3.on(CreateMultipartUploadCommand).callsFake((input) => {
    const uploadId = `mpu-${multipart.size + 1}`;
    multipart.set(uploadId, { key: input.Key, contentType: input.ContentType, parts: new Map() });
    return { UploadId: uploadId };
  });
  s3.on(UploadPartCommand).callsFake((input) => {
    multipart.get(input.UploadId)!.parts.set(input.PartNumber, Buffer.from(input.Body));
    return { ETag: `"part-${input.PartNumber}"` };
  });
  s3.on(CompleteMultipartUploadCommand).callsFake((input) => {
    const upload = multipart.get(input.UploadId)!;
    const numbers = input.MultipartUpload.Parts.map((p: { PartNumber: number }) => p.PartNumber);
    objects.set(upload.key, { body: Buffer.concat(numbers.map((n: number) => upload.parts.get(n)!)), contentType: upload.contentType });
    multipart.delete(input.UploadId);
    return {};
  });
  s3.on(AbortMultipartUploadCommand).callsFake((input) => {
    multipart.delete(input.UploadId);
    return {};
  });
  s3.on(GetObjectCommand).callsFake((input) => {
    const object = objects.get(input.Key);
    if (!object) throw noSuchKey();
    const m = input.Range ? /^bytes=(\d+)-(\d+)$/.exec(input.Range) : null;
    const body = m ? object.body.subarray(Number(m[1]), Number(m[2]) + 1) : object.body;
    return { Body: Readable.from([body]), ContentLength: body.length };
  });
  s3.on(HeadObjectCommand).callsFake((input) => {
    const object = objects.get(input.Key);
    if (!object) throw Object.assign(new Error("NotFound"), { name: "NotFound", $metadata: { httpStatusCode: 404 } });
    return { ContentLength: object.body.length };
  });
  s3.on(DeleteObjectCommand).callsFake((input) => {
    objects.delete(input.Key);
    return {};
  });
}

const s3Config = { bucket: BUCKET, region: "us-east-1", endpoint: "http://127.0.0.1:1", forcePathStyle: true, credentials: { accessKeyId: "test", secretAccessKey: "test" } };

for (const kind of STORE_KINDS) {
  describe(`uploads in S3 [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind, { s3: s3Config });
    });
    after(async () => {
      await t.close();
      s3.restore();
    });
    beforeEach(installBucket);

    it("puts a small file as one object keyed by its path id, and serves it with ranges", async () => {
      const { url } = await uploadFile(t, "hamlet", "s3 notes.txt", "stored in a bucket", "text/plain");
      const key = decodeURIComponent(url.slice("/user_uploads/".length));
      assert.deepEqual([...objects.keys()], [key]);
      assert.equal(objects.get(key)!.contentType, "text/plain");
      assert.equal(s3.commandCalls(CreateMultipartUploadCommand).length, 0);
      const whole = await fetchUrl(t, "hamlet", url);
      assert.equal(whole.body, "stored in a bucket");
      const part = await fetchUrl(t, "hamlet", url, { range: "bytes=10-17" });
      assert.equal(part.status, 206);
      assert.equal(part.body, "a bucket");
      assert.equal(s3.commandCalls(GetObjectCommand).at(-1)!.args[0].input.Range, "bytes=10-17");
      assert.equal((await fetchUrl(t, "othello", url)).status, 404);
    });

    it("streams a large file up in parts of bounded size", async () => {
      const size = 2 * PART_SIZE + 12345;
      const content = Buffer.alloc(size);
      for (let i = 0; i < size; i++) content[i] = (i * 7) % 256;
      const res = await uploadParts(t, "hamlet", [{ filename: "video.mp4", content, contentType: "video/mp4" }]);
      assert.equal(res.status, 200, res.body);
      const parts = s3.commandCalls(UploadPartCommand).map((c) => (c.args[0].input.Body as Buffer).length);
      assert.deepEqual(parts, [PART_SIZE, PART_SIZE, 12345]);
      assert.equal(s3.commandCalls(CompleteMultipartUploadCommand).length, 1);
      const key = decodeURIComponent(res.json().url.slice("/user_uploads/".length));
      assert.ok(objects.get(key)!.body.equals(content));
      const tail = await fetchUrl(t, "hamlet", res.json().url, { range: "bytes=-5" });
      assert.ok(tail.rawPayload.equals(content.subarray(size - 5)));
    });

    it("aborts the multipart upload when a part fails, leaving nothing behind", async () => {
      s3.on(UploadPartCommand).rejectsOnce(Object.assign(new Error("slow down"), { name: "SlowDown", $metadata: { httpStatusCode: 503 } }));
      const res = await uploadParts(t, "hamlet", [{ filename: "fails.bin", content: Buffer.alloc(PART_SIZE + 1, 1) }]);
      assert.equal(res.status, 500);
      assert.equal(s3.commandCalls(AbortMultipartUploadCommand).length, 1);
      assert.equal(multipart.size, 0);
      assert.equal(objects.size, 0);
      assert.ok(!(await t.as("hamlet").get("/attachments")).body.attachments.some((a: { name: string }) => a.name === "fails.bin"));
    });

    it("deletes the object with the attachment, and reports a missing object as missing", async () => {
      const { url } = await uploadFile(t, "hamlet", "bye.txt", "bye");
      const key = decodeURIComponent(url.slice("/user_uploads/".length));
      const storage = uploadStorage(t.deps.config);
      assert.deepEqual(await storage.stat(key), { size: 3 });
      const attachment = (await t.as("hamlet").get("/attachments")).body.attachments.find((a: { path_id: string }) => a.path_id === key);
      assert.equal((await t.as("hamlet").delete(`/attachments/${attachment.id}`)).status, 200);
      assert.equal(objects.has(key), false);
      assert.equal(await storage.stat(key), null);
      assert.equal(await storage.get(key), null);
    });

    it("keeps an image's thumbnails in the bucket next to it, and deletes them with it", async () => {
      const { url } = await uploadFile(t, "hamlet", "pic.png", await pngImage(1000, 500), "image/png");
      const key = decodeURIComponent(url.slice("/user_uploads/".length));
      const thumbKey = `thumbnail/${key}/840x560.webp`;
      assert.deepEqual([...objects.keys()].sort(), [key, thumbKey].sort());
      assert.equal(objects.get(thumbKey)!.contentType, "image/webp");
      const thumb = await fetchUrl(t, "hamlet", `/user_uploads/${thumbKey.split("/").map(encodeURIComponent).join("/")}`);
      assert.equal(thumb.status, 200, thumb.body);
      assert.deepEqual(await describeImage(thumb.rawPayload), { format: "webp", width: 840, height: 420, pages: 1 });
      const attachment = (await t.as("hamlet").get("/attachments")).body.attachments.find((a: { path_id: string }) => a.path_id === key);
      assert.equal((await t.as("hamlet").delete(`/attachments/${attachment.id}`)).status, 200);
      assert.equal(objects.size, 0);
    });

    it("refuses a path id that could name another object", async () => {
      const storage = uploadStorage(t.deps.config);
      for (const bad of ["../1/x", "1/./x", "1//x", "", "1/x\u0000"]) {
        await assert.rejects(storage.get(bad), /unsafe upload path id/, bad);
      }
      assert.equal(s3.commandCalls(GetObjectCommand).length, 0);
    });
  });
}
