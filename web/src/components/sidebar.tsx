/**
 * The left sidebar (issue 10): the views (combined feed, mentions, starred), channels by folder
 * with their topics, and recent direct messages, each with its unread count. Arrow keys move
 * between entries; every entry is a link, so Enter opens it and the browser's history works.
 */
import { useRef, useState } from "preact/hooks";
import { narrowHref, type Narrow } from "../router";
import { useClientState, useSession } from "../session";
import { unreadCounts } from "../state/unread";
import { visibleUnreadCounts } from "../state/unread-visible";
import { dmTitle } from "../narrow";
import { moveFocusWithArrows } from "./keyboard";
import { NewChannelDialog } from "./new-channel-dialog";
import { SidebarChannels } from "./sidebar-channels";
import { UnreadBadge } from "./unread-badge";

const RECENT_DMS_SHOWN = 10;

function sameNarrow(a: Narrow, b: Narrow): boolean {
  return narrowHref(a) === narrowHref(b);
}

function DirectMessages({ narrow }: { narrow: Narrow }) {
  const state = useClientState((s) => s);
  const byDm = unreadCounts(state.unread).byDm;
  const conversations = state.recentDms.slice(0, RECENT_DMS_SHOWN).map((c) => {
    const ids = c.user_ids.length === 0 ? [state.userId] : c.user_ids;
    return { ids, title: dmTitle(state, ids), unread: byDm.get(ids.join(",")) ?? 0 };
  });
  return (
    <section class="sidebar-group" aria-labelledby="group-dms">
      <h2 id="group-dms" class="sidebar-heading">
        Direct messages
      </h2>
      <ul class="dm-list">
        {conversations.map((c) => {
          const target: Narrow = { kind: "dm", userIds: c.ids };
          const active = sameNarrow(target, narrow);
          return (
            <li key={c.ids.join(",")}>
              <a class={`dm-link${active ? " active" : ""}`} href={narrowHref(target)} aria-current={active ? "page" : undefined}>
                <span class="label">{c.title}</span>
                <UnreadBadge count={c.unread} />
              </a>
            </li>
          );
        })}
        {conversations.length === 0 && <li class="sidebar-note">No conversations yet</li>}
      </ul>
    </section>
  );
}

export function Sidebar({ narrow }: { narrow: Narrow }) {
  const session = useSession();
  const nav = useRef<HTMLElement>(null);
  const counts = useClientState((s) => unreadCounts(s.unread));
  // Muted topics and channels count neither in the combined feed's badge nor in their channel's.
  const visible = useClientState(visibleUnreadCounts);
  const starred = useClientState((s) => s.starred.size);
  const [creating, setCreating] = useState(false);
  const views: Array<{ narrow: Narrow; label: string; count: number; mention?: boolean }> = [
    { narrow: { kind: "all" }, label: "Combined feed", count: visible.total },
    { narrow: { kind: "mentions" }, label: "Mentions", count: counts.mentions, mention: true },
    { narrow: { kind: "starred" }, label: "Starred", count: starred },
  ];
  return (
    <nav id="sidebar" class="sidebar" aria-label="Channels and conversations" ref={nav} onKeyDown={(e) => moveFocusWithArrows(e, nav.current)}>
      <ul class="view-list">
        {views.map((view) => {
          const active = sameNarrow(view.narrow, narrow);
          return (
            <li key={view.label}>
              <a class={`view-link${active ? " active" : ""}`} href={narrowHref(view.narrow)} aria-current={active ? "page" : undefined}>
                <span class="label">{view.label}</span>
                <UnreadBadge count={view.count} mention={view.mention} />
              </a>
            </li>
          );
        })}
      </ul>
      {counts.total > 0 && (
        <button type="button" class="link-button mark-read" onClick={() => void session.api.post("/mark_all_as_read").catch(() => undefined)}>
          Mark all messages as read
        </button>
      )}
      <SidebarChannels narrow={narrow} />
      <button type="button" class="link-button add-channel" onClick={() => setCreating(true)}>
        + Create a channel
      </button>
      <DirectMessages narrow={narrow} />
      {creating && <NewChannelDialog onClose={() => setCreating(false)} />}
    </nav>
  );
}
