/**
 * Uploads on the local disk under UPLOADS_DIR (issue 7, item 3). A path id maps to
 * `{root}/{path_id}`; the resolved path must lie strictly inside the root, so no path id can reach
 * anything else. Writes go to a temporary sibling first and are renamed into place once complete,
 * so a reader never sees half a file and an interrupted upload leaves nothing behind.
 */
import { createWriteStream } from "node:fs";
import { mkdir, open, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomToken } from "../lib/secrets.js";
import { checkPathId, UnsafePathError } from "./names.js";
import type { ByteRange, StoredFile, UploadStorage } from "./storage.js";

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === "ENOENT";

export class LocalDiskStorage implements UploadStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file's absolute path, refusing any path id that would resolve outside the root. */
  private pathFor(pathId: string): string {
    checkPathId(pathId);
    const full = resolve(this.root, pathId);
    if (!full.startsWith(this.root + sep)) throw new UnsafePathError(pathId);
    return full;
  }

  async put(pathId: string, body: Readable): Promise<StoredFile> {
    const target = this.pathFor(pathId);
    await mkdir(dirname(target), { recursive: true });
    // Stored names never start with a dot (names.ts), so this cannot collide with a file, and it
    // stays short whatever the length of the final name.
    const partial = join(dirname(target), `.${randomToken(9)}.partial`);
    try {
      await pipeline(body, createWriteStream(partial, { flags: "wx" }));
      const { size } = await stat(partial);
      await rename(partial, target);
      return { size };
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(pathId: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const handle = await open(this.pathFor(pathId), "r");
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async stat(pathId: string): Promise<StoredFile | null> {
    try {
      const s = await stat(this.pathFor(pathId));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(pathId: string): Promise<void> {
    const full = this.pathFor(pathId);
    await rm(full, { force: true });
    // The directories that belonged to this upload alone go once empty: the random directory of an
    // upload, and for a thumbnail (`thumbnail/{realm}/{random}/{name}/{format}`) also the
    // per-upload directories above it. Shared ones (a realm's) stay, so no concurrent write loses
    // the directory it just created.
    let dir = dirname(full);
    for (let levels = pathId.startsWith("thumbnail/") ? 2 : 1; levels > 0; levels--, dir = dirname(dir)) {
      if (!(await rmdir(dir).then(() => true, () => false))) break;
    }
  }
}
