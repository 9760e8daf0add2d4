/**
 * Memory during a large upload (issue 7: memory stays flat): a real server on 127.0.0.1 takes a
 * 200 MiB file on `POST /api/v1/user_uploads` from a client that streams the multipart body in
 * 1 MiB chunks, then serves it back on `GET /user_uploads/…`. Peak RSS is sampled every 10 ms and
 * compared with the RSS before; a buffered implementation would grow by at least the file size.
 * Run with `npx tsx bench/upload-memory.ts [MiB]`.
 */
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { basicAuth } from "../test/helpers/http.js";
import { createUploadRealm } from "../test/helpers/uploads.js";

const MIB = 1024 * 1024;
const SIZE_MIB = Number(process.argv[2] ?? 200);

const mib = (bytes: number) => (bytes / MIB).toFixed(1);

/** Samples RSS until stopped; returns the peak. */
function sampleRss(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

async function upload(port: number, host: string, authorization: string): Promise<{ status: number; body: string }> {
  const boundary = "----parley-bench-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MIB, 0x5a);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/v1/user_uploads",
        headers: {
          host,
          authorization,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": head.length + SIZE_MIB * MIB + tail.length,
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d: string) => (body += d)).on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    let sent = 0;
    const pump = () => {
      while (sent < SIZE_MIB) {
        sent += 1;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end(tail);
    };
    req.write(head);
    pump();
  });
}

async function download(port: number, host: string, authorization: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, headers: { host, authorization } }, (res) => {
      let bytes = 0;
      res.on("data", (d: Buffer) => (bytes += d.length)).on("end", () => resolve(bytes));
    })
      .on("error", reject)
      .end();
  });
}

async function main(): Promise<void> {
  const t = await createUploadRealm("sqlite", { maxFileUploadSizeMib: SIZE_MIB + 1 });
  try {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const authorization = basicAuth(t.users.hamlet);
    global.gc?.();
    const before = process.memoryUsage().rss;

    let stop = sampleRss();
    let started = performance.now();
    const res = await upload(port, t.host, authorization);
    const uploadPeak = stop();
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.body}`);
    const uploadSeconds = (performance.now() - started) / 1000;
    const url: string = JSON.parse(res.body).url;

    stop = sampleRss();
    started = performance.now();
    const bytes = await download(port, t.host, authorization, url);
    const downloadPeak = stop();
    if (bytes !== SIZE_MIB * MIB) throw new Error(`downloaded ${bytes} bytes`);
    const downloadSeconds = (performance.now() - started) / 1000;

    console.log(`file: ${SIZE_MIB} MiB; RSS before: ${mib(before)} MiB`);
    console.log(`upload:   ${uploadSeconds.toFixed(2)} s, peak RSS ${mib(uploadPeak)} MiB (+${mib(uploadPeak - before)} MiB)`);
    console.log(`download: ${downloadSeconds.toFixed(2)} s, peak RSS ${mib(downloadPeak)} MiB (+${mib(downloadPeak - before)} MiB)`);
  } finally {
    await t.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
