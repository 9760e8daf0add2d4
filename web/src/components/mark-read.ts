/**
 * Marks messages read as they are seen (issue 10): an unread message at least half visible in
 * the message list while the page itself is visible is queued, and the queue goes out in one
 * POST /messages/flags a moment later; the update_message_flags event then updates the counts.
 * Messages that became visible while the page was hidden are marked when it is shown again.
 */
import { useEffect, useRef } from "preact/hooks";
import { useSession } from "../session";
import type { Message } from "../state/types";

const FLUSH_DELAY_MS = 400;

export function useMarkAsRead(scroller: { current: HTMLElement | null }, messages: readonly Message[]) {
  const session = useSession();
  const observer = useRef<IntersectionObserver | null>(null);

  useEffect(() => {
    /** Unread messages now on screen, whether or not the page is visible. */
    const onScreen = new Set<number>();
    const sent = new Set<number>();
    let pending: number[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;

    const flush = () => {
      timer = undefined;
      const ids = pending;
      pending = [];
      if (ids.length === 0) return;
      session.api.post("/messages/flags", { messages: ids, op: "add", flag: "read" }).catch(() => {
        for (const id of ids) sent.delete(id); // seen again later, tried again
      });
    };
    const queueSeen = () => {
      if (document.visibilityState !== "visible") return;
      for (const id of onScreen) {
        if (sent.has(id)) continue;
        sent.add(id);
        pending.push(id);
      }
      if (pending.length > 0 && timer === undefined) timer = setTimeout(flush, FLUSH_DELAY_MS);
    };
    observer.current = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const el = entry.target as HTMLElement;
          const id = Number(el.dataset.messageId);
          if (entry.isIntersecting && el.classList.contains("unread")) onScreen.add(id);
          else onScreen.delete(id);
        }
        queueSeen();
      },
      { root: scroller.current, threshold: 0.5 },
    );
    document.addEventListener("visibilitychange", queueSeen);
    return () => {
      document.removeEventListener("visibilitychange", queueSeen);
      observer.current?.disconnect();
      if (timer !== undefined) clearTimeout(timer);
      flush();
    };
  }, [session, scroller]);

  // Observe the unread messages now in the list; read ones stop being observed.
  useEffect(() => {
    const root = scroller.current;
    const obs = observer.current;
    if (!root || !obs) return;
    for (const el of root.querySelectorAll<HTMLElement>("article.message")) {
      if (el.classList.contains("unread")) obs.observe(el);
      else obs.unobserve(el);
    }
  }, [messages]);
}
