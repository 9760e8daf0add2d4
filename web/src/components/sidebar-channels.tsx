/**
 * The sidebar's channels, grouped like Zulip's: pinned channels, then each channel folder in its
 * order, then the rest; under the open channel, its most recent topics and any unread ones.
 */
import { useState } from "preact/hooks";
import { narrowHref, type Narrow } from "../router";
import { useClientState, useSession } from "../session";
import type { ClientState } from "../state/client-state";
import { useChannelTopics } from "../state/topics";
import type { Subscription } from "../state/types";
import { topicKey, unreadCounts } from "../state/unread";
import { visibleUnreadCounts } from "../state/unread-visible";
import { UnreadBadge } from "./unread-badge";

const RECENT_TOPICS_SHOWN = 8;

interface ChannelGroup {
  id: string;
  title: string;
  channels: Subscription[];
}

function groupChannels(state: ClientState): ChannelGroup[] {
  const byName = (a: Subscription, b: Subscription) => a.name.localeCompare(b.name);
  const subs = [...state.subscriptions.values()].filter((s) => !s.is_archived).sort(byName);
  const pinned = subs.filter((s) => s.pin_to_top);
  const folders = [...state.channelFolders].filter((f) => !f.is_archived).sort((a, b) => (a.order ?? a.id) - (b.order ?? b.id));
  const groups: ChannelGroup[] = [{ id: "pinned", title: "Pinned", channels: pinned }];
  for (const folder of folders) groups.push({ id: `folder-${folder.id}`, title: folder.name, channels: subs.filter((s) => !s.pin_to_top && s.folder_id === folder.id) });
  const inFolder = new Set(folders.map((f) => f.id));
  groups.push({ id: "other", title: folders.length > 0 ? "Other channels" : "Channels", channels: subs.filter((s) => !s.pin_to_top && !inFolder.has(s.folder_id ?? -1)) });
  return groups.filter((g) => g.channels.length > 0);
}

function TopicList({ channel, narrow }: { channel: Subscription; narrow: Narrow }) {
  const topics = useChannelTopics(channel.stream_id);
  const counts = useClientState((s) => unreadCounts(s.unread));
  const [showAll, setShowAll] = useState(false);
  if (!topics) return <p class="sidebar-note">Loading topics…</p>;
  const unreadOf = (name: string) => counts.byTopic.get(topicKey(channel.stream_id, name)) ?? 0;
  const activeTopic = narrow.kind === "topic" ? narrow.topic.toLowerCase() : null;
  const shown = showAll ? topics : topics.filter((t, i) => i < RECENT_TOPICS_SHOWN || unreadOf(t.name) > 0 || t.name.toLowerCase() === activeTopic);
  return (
    <ul class="topic-list" aria-label={`Topics in ${channel.name}`}>
      {shown.map((topic) => {
        const active = topic.name.toLowerCase() === activeTopic;
        const count = unreadOf(topic.name);
        return (
          <li key={topic.name}>
            <a
              class={`topic-link${active ? " active" : ""}${count > 0 ? " unread" : ""}`}
              href={narrowHref({ kind: "topic", streamId: channel.stream_id, topic: topic.name }, channel.name)}
              aria-current={active ? "page" : undefined}
            >
              <span class="label">{topic.name || <em>general chat</em>}</span>
              <UnreadBadge count={count} />
            </a>
          </li>
        );
      })}
      {topics.length > shown.length && (
        <li>
          <button type="button" class="link-button" onClick={() => setShowAll(true)}>
            More topics ({topics.length - shown.length})
          </button>
        </li>
      )}
      {topics.length === 0 && <li class="sidebar-note">No topics yet</li>}
    </ul>
  );
}

export function SidebarChannels({ narrow }: { narrow: Narrow }) {
  const groups = useClientState(groupChannels);
  const counts = useClientState(visibleUnreadCounts);
  const allUnread = useClientState((s) => unreadCounts(s.unread));
  const session = useSession();
  const activeStream = narrow.kind === "channel" || narrow.kind === "topic" ? narrow.streamId : null;
  if (groups.length === 0) return <p class="sidebar-note">You are not subscribed to any channels.</p>;
  return (
    <>
      {groups.map((group) => (
        <section key={group.id} class="sidebar-group" aria-labelledby={`group-${group.id}`}>
          <h2 id={`group-${group.id}`} class="sidebar-heading">
            {group.title}
          </h2>
          <ul class="channel-list">
            {group.channels.map((channel) => {
              const active = channel.stream_id === activeStream;
              return (
                <li key={channel.stream_id}>
                  <a
                    class={`channel-link${active ? " active" : ""}${channel.is_muted ? " muted" : ""}`}
                    href={narrowHref({ kind: "channel", streamId: channel.stream_id }, channel.name)}
                    aria-current={active && narrow.kind === "channel" ? "page" : undefined}
                  >
                    <span class="channel-swatch" style={{ background: channel.color }} aria-hidden="true">
                      {channel.invite_only ? "🔒" : "#"}
                    </span>
                    <span class="label">{channel.name}</span>
                    <UnreadBadge count={counts.byStream.get(channel.stream_id) ?? 0} />
                  </a>
                  {active && (allUnread.byStream.get(channel.stream_id) ?? 0) > 0 && (
                    <button type="button" class="link-button mark-read" onClick={() => void session.api.post("/mark_stream_as_read", { stream_id: channel.stream_id }).catch(() => undefined)}>
                      Mark #{channel.name} as read
                    </button>
                  )}
                  {active && <TopicList channel={channel} narrow={narrow} />}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </>
  );
}
