/**
 * Drafts kept in this browser when the user has turned enable_drafts_synchronization off (the
 * server then refuses drafts, and Zulip's web app keeps them locally): in localStorage, marked
 * with whose they are, with negative ids so they never meet a server draft's id.
 */
import { createStore } from "../state/store";
import type { Draft } from "../state/compose-lists";

const KEY = "parley.local-drafts";
/** Enough for anyone; the oldest go first beyond it, so storage stays bounded. */
const MAX_LOCAL_DRAFTS = 100;

export type LocalDraft = Draft & { owner: string };
export type DraftBody = Pick<Draft, "type" | "to" | "topic" | "content">;

function read(): LocalDraft[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(value) ? (value as LocalDraft[]) : [];
  } catch {
    return [];
  }
}

export const localDrafts = createStore<LocalDraft[]>(typeof localStorage === "undefined" ? [] : read());

function write(list: LocalDraft[]): void {
  const kept = list.slice(-MAX_LOCAL_DRAFTS);
  localDrafts.set(kept);
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // storage full or blocked: the drafts live as long as the page
  }
}

let lastId = 0;
const now = () => Math.floor(Date.now() / 1000);

export function createLocalDraft(owner: string, body: DraftBody): number {
  const id = -Math.max(Date.now(), lastId + 1);
  lastId = -id;
  write([...localDrafts.get(), { ...body, id, owner, timestamp: now() }]);
  return id;
}

export function updateLocalDraft(id: number, body: DraftBody): void {
  write(localDrafts.get().map((d) => (d.id === id ? { ...d, ...body, timestamp: now() } : d)));
}

export function removeLocalDraft(id: number): void {
  write(localDrafts.get().filter((d) => d.id !== id));
}
