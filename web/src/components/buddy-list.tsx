/**
 * The buddy list (Zulip's right sidebar): the organization's people with a dot for active, idle or
 * offline, active first, then idle, then offline, each by name. Statuses come from presence state
 * (register, presence events, the reporter's pings) and are recomputed as time passes, so someone
 * who stops pinging turns idle, then offline, without any event. Each name opens a DM with them.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { narrowHref } from "../router";
import { useClientState } from "../session";
import { presenceStatus, type PresenceStatus } from "../state/presence";

const RANK: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };
const LABEL: Record<PresenceStatus, string> = { active: "Active", idle: "Idle", offline: "Offline" };
/** More people than this are listed only when the filter narrows them down. */
const SHOWN_UNFILTERED = 200;
const TICK_MS = 15_000;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function BuddyList() {
  const users = useClientState((s) => s.users);
  const presence = useClientState((s) => s.presence);
  const myId = useClientState((s) => s.userId);
  const now = useNow(TICK_MS);
  const [filter, setFilter] = useState("");
  const people = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return [...users.values()]
      .filter((u) => u.is_active && !u.is_bot && (needle === "" || u.full_name.toLowerCase().includes(needle)))
      .map((u) => ({ user: u, status: presenceStatus(presence, u.user_id, now) }))
      .sort((a, b) => RANK[a.status] - RANK[b.status] || a.user.full_name.localeCompare(b.user.full_name));
  }, [users, presence, now, filter]);
  const shown = people.slice(0, SHOWN_UNFILTERED);
  return (
    <aside class="buddy-list" aria-labelledby="buddy-list-title">
      <h2 id="buddy-list-title" class="buddy-heading">
        People
      </h2>
      <label class="visually-hidden" for="buddy-filter">
        Filter people
      </label>
      <input id="buddy-filter" type="search" placeholder="Filter people" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <ul>
        {shown.map(({ user, status }) => (
          <li key={user.user_id} data-status={status}>
            <a href={narrowHref({ kind: "dm", userIds: [user.user_id] })} title={`${user.full_name}: ${LABEL[status]}`}>
              <span class={`presence-dot ${status}`} aria-hidden="true" />
              <span class="label">
                {user.full_name}
                {user.user_id === myId && " (you)"}
              </span>
              <span class="visually-hidden">{`, ${LABEL[status].toLowerCase()}`}</span>
            </a>
          </li>
        ))}
      </ul>
      {people.length > shown.length && <p class="buddy-note">Filter to see {people.length - shown.length} more</p>}
    </aside>
  );
}
