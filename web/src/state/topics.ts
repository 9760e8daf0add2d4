/**
 * A channel's topics for the sidebar, loaded on first need with GET /users/me/{stream_id}/topics
 * and then kept current by message and move events (apply-event.ts).
 */
import { useEffect } from "preact/hooks";
import { useClientState, useSession } from "../session";
import type { TopicInfo } from "./types";

export function useChannelTopics(streamId: number | null): readonly TopicInfo[] | undefined {
  const session = useSession();
  const topics = useClientState((s) => (streamId === null ? undefined : s.topics.get(streamId)));
  useEffect(() => {
    if (streamId === null || topics !== undefined) return;
    let cancelled = false;
    session.api
      .get<{ topics: TopicInfo[] }>(`/users/me/${streamId}/topics`)
      .then(({ topics: loaded }) => {
        if (!cancelled) session.update((s) => ({ ...s, topics: new Map(s.topics).set(streamId, loaded) }));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [session, streamId, topics]);
  return topics;
}
