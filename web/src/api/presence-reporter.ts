/**
 * Tells the server this user is here (POST /users/me/presence, zulip-openapi.yaml update-presence):
 * once at start, then every server_presence_ping_interval_seconds, and at once when the reader
 * comes back. "active" while the page is visible and was used in the last five minutes (Zulip's
 * web app goes idle after a few minutes without input), "idle" otherwise. Each answer carries the
 * presences changed since the last update id, which keeps the buddy list current between events.
 */
import type { ApiClient } from "./client";
import { mergePresences, type PresenceState, type RawPresence } from "../state/presence";

const IDLE_AFTER_MS = 5 * 60 * 1000;
const INPUT_EVENTS = ["keydown", "pointerdown", "focusin", "visibilitychange"] as const;

interface PresenceAnswer {
  presences?: Record<string, RawPresence>;
  presence_last_update_id?: number;
}

export interface PresenceHost {
  api: ApiClient;
  presence(): PresenceState | null;
  setPresence(change: (state: PresenceState) => PresenceState): void;
}

/** Starts reporting; returns the function that stops it. */
export function startPresenceReporter(host: PresenceHost): () => void {
  let lastInput = Date.now();
  let reported: "active" | "idle" | null = null;
  let stopped = false;
  const status = () => (document.visibilityState === "visible" && Date.now() - lastInput < IDLE_AFTER_MS ? "active" : "idle");

  const ping = async () => {
    const current = host.presence();
    if (stopped || !current) return;
    reported = status();
    try {
      const answer = await host.api.post<PresenceAnswer>("/users/me/presence", {
        status: reported,
        slim_presence: true,
        new_user_input: reported === "active",
        last_update_id: current.lastUpdateId,
      });
      if (!stopped) host.setPresence((state) => mergePresences(state, answer.presences, answer.presence_last_update_id));
    } catch {
      // The next ping tries again; presence is best effort.
    }
  };

  const onInput = () => {
    lastInput = Date.now();
    if (reported !== status()) void ping();
  };
  for (const name of INPUT_EVENTS) document.addEventListener(name, onInput, { passive: true });
  const intervalMs = (host.presence()?.pingIntervalSec ?? 60) * 1000;
  const timer = setInterval(() => void ping(), intervalMs);
  void ping();
  return () => {
    stopped = true;
    clearInterval(timer);
    for (const name of INPUT_EVENTS) document.removeEventListener(name, onInput);
  };
}
