/**
 * Keeps unsent compose text as a Zulip draft (issue 20; POST/PATCH/DELETE /drafts): saved a
 * moment after typing stops, when the compose box goes away (another view) and when the page is
 * hidden; deleted once the message is sent or the text is cleared. With the user's
 * enable_drafts_synchronization off (the server refuses drafts then) they stay in this browser
 * (local-drafts.ts). Saves run one after another, so a send never races the POST that gives the
 * draft its id.
 */
import { useEffect, useMemo, useRef } from "preact/hooks";
import type { ComposeTarget } from "../narrow";
import { useClientState, useSession } from "../session";
import { createStore, useStore } from "../state/store";
import { createLocalDraft, localDrafts, removeLocalDraft, updateLocalDraft, type DraftBody, type LocalDraft } from "./local-drafts";
import { draftsOf, type Draft } from "../state/compose-lists";

const SAVE_DELAY_MS = 1500;

function draftOf(target: ComposeTarget, content: string): DraftBody {
  if (target.kind === "stream") return target.streamId === null ? { type: "", to: [], topic: "", content } : { type: "stream", to: [target.streamId], topic: target.topic, content };
  return target.userIds.length === 0 ? { type: "", to: [], topic: "", content } : { type: "private", to: target.userIds, topic: "", content };
}

export function useDraftSync(target: ComposeTarget, content: string) {
  const session = useSession();
  const enabled = useClientState((s) => s.userSettings.enable_drafts_synchronization !== false);
  const draftId = useRef<number | null>(null);
  const saved = useRef("");
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef({ target, content, enabled });
  latest.current = { target, content, enabled };

  const run = (job: () => Promise<unknown>) => (queue.current = queue.current.then(job).catch(() => undefined));

  /** Server drafts have positive ids, local ones negative. */
  async function create(body: DraftBody, onServer: boolean): Promise<number> {
    if (!onServer) return createLocalDraft(session.api.email, body);
    const { ids } = await session.api.post<{ ids: number[] }>("/drafts", { drafts: [body] });
    return ids[0];
  }
  const update = (id: number, body: DraftBody) => (id < 0 ? updateLocalDraft(id, body) : session.api.patch(`/drafts/${id}`, { draft: { ...body, timestamp: Math.floor(Date.now() / 1000) } }));
  const remove = (id: number) => (id < 0 ? removeLocalDraft(id) : session.api.delete(`/drafts/${id}`));

  function save() {
    return run(async () => {
      const { target: t, content: c, enabled: on } = latest.current;
      const body = draftOf(t, c);
      const key = JSON.stringify(body);
      if (key === saved.current) return;
      if (c.trim() === "") {
        if (draftId.current !== null) await remove(draftId.current);
        draftId.current = null;
      } else if (draftId.current !== null) {
        await update(draftId.current, body);
      } else {
        draftId.current = (await create(body, on)) ?? null;
      }
      saved.current = key;
    });
  }

  useEffect(() => {
    if (content.trim() === "" && draftId.current === null) return;
    const timer = setTimeout(() => void save(), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [content, JSON.stringify(target)]);

  useEffect(() => {
    const onHide = () => document.visibilityState === "hidden" && void save();
    document.addEventListener("visibilitychange", onHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      void save(); // the compose box is going away: keep what was typed
    };
  }, []);

  return {
    /** The message went out: its draft is no longer needed. */
    sent() {
      void run(async () => {
        if (draftId.current !== null) await remove(draftId.current);
        draftId.current = null;
        saved.current = JSON.stringify(draftOf(latest.current.target, ""));
      });
    },
    /** A draft restored into the box: later edits update it instead of making another. */
    adopt(draft: Draft) {
      draftId.current = draft.id;
      saved.current = JSON.stringify({ type: draft.type, to: draft.to, topic: draft.topic, content: draft.content });
    },
  };
}

/** A draft the drafts view asked to restore; the next compose box to mount takes it. */
export const draftToRestore = createStore<Draft | null>(null);

/** The signed-in user's drafts: the server's, then those kept in this browser. */
export function useAllDrafts(): readonly Draft[] {
  const session = useSession();
  const server = useClientState(draftsOf);
  const local = useStore(localDrafts, (list) => list);
  return useMemo(() => [...server, ...local.filter((d: LocalDraft) => d.owner === session.api.email)], [server, local, session]);
}

/** Deletes a draft wherever it is kept. */
export function deleteDraft(session: ReturnType<typeof useSession>, id: number): Promise<unknown> {
  if (id >= 0) return session.api.delete(`/drafts/${id}`);
  removeLocalDraft(id);
  return Promise.resolve();
}
