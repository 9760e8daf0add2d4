/**
 * File uploads from the compose box: small files in one POST /user_uploads (multipart), larger
 * ones through the tus protocol at /api/v1/tus (spec 4.22), which resumes after a dropped
 * connection and, through tus-js-client's stored fingerprints, after a page reload. tus-js-client
 * is loaded only when a large file is sent, so it does not weigh on the first load.
 */
import type { ApiClient } from "./client";

/** Files above this go through tus: a failure then costs one chunk, not the whole file. */
export const RESUMABLE_THRESHOLD_BYTES = 5 * 1024 * 1024;
const CHUNK_BYTES = 5 * 1024 * 1024;

export interface UploadedFile {
  url: string;
  filename: string;
}

export type ProgressListener = (fraction: number) => void;

async function uploadInOneRequest(api: ApiClient, file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.append("file", file, file.name);
  const result = await api.post<{ url: string; uri?: string; filename?: string }>("/user_uploads", {}, { formData: form });
  return { url: result.url ?? result.uri, filename: result.filename ?? file.name };
}

async function uploadResumably(api: ApiClient, file: File, onProgress: ProgressListener): Promise<UploadedFile> {
  const { Upload } = await import("tus-js-client");
  return new Promise<UploadedFile>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: "/api/v1/tus",
      headers: { Authorization: api.authorization },
      metadata: { filename: file.name, filetype: file.type || "application/octet-stream" },
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(total > 0 ? sent / total : 0),
      onError: reject,
      onSuccess: ({ lastResponse }) => {
        // The last PATCH answers like POST /user_uploads (tus.ts), with the file's URL.
        try {
          const body = JSON.parse(lastResponse.getBody() ?? "{}") as { url?: string; uri?: string; filename?: string };
          const url = body.url ?? body.uri;
          if (!url) throw new Error("The server did not return the file's URL");
          resolve({ url, filename: body.filename ?? file.name });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      },
    });
    upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous.length > 0) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      })
      .catch(reject);
  });
}

export function uploadFile(api: ApiClient, file: File, onProgress: ProgressListener = () => undefined): Promise<UploadedFile> {
  return file.size > RESUMABLE_THRESHOLD_BYTES ? uploadResumably(api, file, onProgress) : uploadInOneRequest(api, file);
}

/** The Markdown link compose inserts for an uploaded file (Zulip's form: `[name](url)`). */
export function uploadLink(file: UploadedFile): string {
  const label = file.filename.replace(/[[\]]/g, "");
  return `[${label}](${file.url})`;
}
