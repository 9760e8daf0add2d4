/**
 * The signed-in layout: a top bar (search, connection state, user menu), the left sidebar and
 * the main area for the current route. Shortcuts: "/" focuses search, "c" the compose box,
 * "Escape" in search returns to the combined feed.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { narrowHref, navigate, settingsHref, type Narrow, type Route } from "../router";
import { useClientState, useSession } from "../session";
import { MAX_SEARCH_LENGTH, searchSuggestions } from "../search-query";
import { SettingsPage } from "../settings/index";
import { DraftsView } from "../compose/drafts-view";
import { ScheduledView } from "../compose/scheduled-view";
import { useStore } from "../state/store";
import { me } from "../state/client-state";
import { Avatar } from "./avatar";
import { BuddyList } from "./buddy-list";
import { isTyping } from "./keyboard";
import { MessageView } from "./message-view";
import { Sidebar } from "./sidebar";

const STATUS_TEXT = { connecting: "Connecting…", connected: "", reconnecting: "Reconnecting…", unauthorized: "Signed out" } as const;

function SearchBox({ narrow }: { narrow: Narrow | null }) {
  const [query, setQuery] = useState(narrow?.kind === "search" ? narrow.query : "");
  const sources = useClientState((s) => ({ channels: s.channels, users: s.users, topics: s.topics }));
  const suggestions = useMemo(
    () =>
      query === "" ? [] :
      searchSuggestions(query, {
        channels: [...sources.channels.values()].map((c) => c.name),
        people: [...sources.users.values()].filter((u) => u.is_active).map((u) => u.email),
        topics: [...new Set([...sources.topics.values()].flatMap((list) => list.map((t) => t.name)))],
      }),
    [query, sources.channels, sources.users, sources.topics],
  );
  useEffect(() => setQuery(narrow?.kind === "search" ? narrow.query : ""), [narrow?.kind === "search" ? narrow.query : null]);
  return (
    <form
      class="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (query.trim()) navigate(narrowHref({ kind: "search", query: query.trim() }));
      }}
    >
      <label class="visually-hidden" for="search-input">
        Search messages
      </label>
      <input
        id="search-input"
        type="search"
        placeholder="Search messages"
        list="search-suggestions"
        maxLength={MAX_SEARCH_LENGTH}
        autocomplete="off"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") navigate("#/");
        }}
      />
      <datalist id="search-suggestions">
        {suggestions.map((option) => (
          <option key={option} value={option} />
        ))}
      </datalist>
    </form>
  );
}

function UserMenu() {
  const session = useSession();
  const user = useClientState(me);
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => !menu.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener("click", close);
    return () => document.removeEventListener("click", close);
  }, [open]);
  return (
    <div class="user-menu" ref={menu} onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <button type="button" class="user-button" aria-label={user?.full_name} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Avatar url={user?.avatar_url} userId={user?.user_id} name={user?.full_name ?? ""} small />
        <span class="user-name">{user?.full_name}</span>
      </button>
      {open && (
        <div class="menu" role="menu">
          <a role="menuitem" href={settingsHref("profile")} onClick={() => setOpen(false)}>
            Settings
          </a>
          <button type="button" role="menuitem" onClick={() => void session.logout()}>
            Log out
          </button>
        </div>
      )}
    </div>
  );
}

/** The user's color_scheme setting (1 automatic, 2 dark, 3 light; spec 4.2) on the page. */
function useColorScheme() {
  const scheme = useClientState((s) => s.userSettings.color_scheme);
  useEffect(() => {
    const dark = window.matchMedia("(prefers-color-scheme: dark)");
    const apply = () => (document.documentElement.dataset.theme = scheme === 2 || (scheme !== 3 && dark.matches) ? "dark" : "light");
    apply();
    dark.addEventListener("change", apply);
    return () => dark.removeEventListener("change", apply);
  }, [scheme]);
}

export function Shell({ route }: { route: Route }) {
  const session = useSession();
  const status = useStore(session.status, (s) => s);
  useColorScheme();
  const narrow: Narrow = route.page === "messages" ? route.narrow : { kind: "all" };
  // Below 760 px the sidebar is a drawer opened from the top bar; any navigation closes it.
  const [navOpen, setNavOpen] = useState(false);
  useEffect(() => setNavOpen(false), [route]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.key === "/" ? "search-input" : e.key === "c" ? "compose-content" : null;
      const el = target && document.getElementById(target);
      if (el) {
        e.preventDefault();
        el.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div class={`shell${navOpen ? " nav-open" : ""}`}>
      <a class="skip-link" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById("main")?.focus())}>
        Skip to messages
      </a>
      <header class="topbar">
        <button type="button" class="icon-button nav-toggle" aria-label="Channels and conversations" aria-controls="sidebar" aria-expanded={navOpen} onClick={() => setNavOpen(!navOpen)}>
          ☰
        </button>
        <a class="topbar-brand" href="#/">
          <span class="brand small" aria-hidden="true">
            P
          </span>
          <span class="brand-name">Parley</span>
        </a>
        <SearchBox narrow={route.page === "messages" ? route.narrow : null} />
        {STATUS_TEXT[status] && (
          <span class="connection" role="status">
            {STATUS_TEXT[status]}
          </span>
        )}
        <UserMenu />
      </header>
      <Sidebar narrow={narrow} />
      <main id="main" class="main" tabindex={-1}>
        {route.page === "settings" ? <SettingsPage path={route.path} /> : route.page === "drafts" ? <DraftsView /> : route.page === "scheduled" ? <ScheduledView /> : <MessageView narrow={route.narrow} />}
      </main>
      <BuddyList />
    </div>
  );
}
