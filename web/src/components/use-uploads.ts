/**
 * Uploads started from compose (button, drag and drop, paste): each file gets a placeholder in
 * the draft, `[Uploading name…]()` as in Zulip, replaced by its link when done or removed on
 * failure; progress is listed for the reader.
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { uploadFile, uploadLink } from "../api/uploads";
import { useSession } from "../session";

export interface UploadProgress {
  id: number;
  name: string;
  fraction: number;
}

let nextUploadId = 1;

export function useUploads(edit: (change: (content: string) => string) => void) {
  const session = useSession();
  const [uploads, setUploads] = useState<UploadProgress[]>([]);
  const [error, setError] = useState<string | null>(null);

  function start(files: Iterable<File>) {
    const limit = session.current.maxFileUploadSizeMib * 1024 * 1024;
    setError(null); // a new attempt: an earlier failure (e.g. a 413) is no longer news
    for (const file of files) {
      if (limit > 0 && file.size > limit) {
        setError(`${file.name} is larger than the ${session.current.maxFileUploadSizeMib} MiB limit.`);
        continue;
      }
      const id = nextUploadId++;
      const placeholder = `[Uploading ${file.name.replace(/[[\]]/g, "")}…]()`;
      edit((content) => `${content}${content === "" || content.endsWith("\n") ? "" : "\n"}${placeholder}\n`);
      setUploads((list) => [...list, { id, name: file.name, fraction: 0 }]);
      const setFraction = (fraction: number) => setUploads((list) => list.map((u) => (u.id === id ? { ...u, fraction } : u)));
      uploadFile(session.api, file, setFraction)
        .then((uploaded) => edit((content) => content.replace(placeholder, uploadLink(uploaded))))
        .catch((e: unknown) => {
          edit((content) => content.replace(`${placeholder}\n`, "").replace(placeholder, ""));
          setError(`Could not upload ${file.name}: ${e instanceof ApiError ? e.msg : e instanceof Error ? e.message : String(e)}`);
        })
        .finally(() => setUploads((list) => list.filter((u) => u.id !== id)));
    }
  }

  return { uploads, uploadError: error, clearUploadError: () => setError(null), startUploads: start };
}
