/**
 * The settings pages (`#/settings/…`, issue 10): personal settings for everyone and, for
 * administrators (role from the register state, following role changes), the organization's.
 * A sidebar lists the sections as links, so they are reachable with Tab and announced as the
 * current page; the section's heading takes focus on navigation for screen-reader users.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { settingsHref } from "../router";
import { isAdmin } from "../state/client-state";
import { useClientState } from "../session";
import { ChannelsAdminPage } from "./admin-channels";
import { RealmDefaultsAdminPage } from "./admin-defaults";
import { FoldersAdminPage } from "./admin-folders";
import { GroupsAdminPage } from "./admin-groups";
import { InvitationsAdminPage } from "./admin-invites";
import { LinkifiersAdminPage } from "./admin-linkifiers";
import { UsersAdminPage } from "./admin-users";
import { BotsPage } from "./bots";
import { AccountPage, NotificationsPage, PreferencesPage, ProfilePage } from "./personal";
import "./settings.css";

export interface SettingsPageProps {
  /** The route's parts after `#/settings/`, e.g. ["profile"] or ["organization", "channels"]. */
  path: string[];
}

interface Section {
  id: string;
  title: string;
  render(sub: string | undefined): ComponentChildren;
}

const PERSONAL: readonly Section[] = [
  { id: "profile", title: "Profile", render: () => <ProfilePage /> },
  { id: "account", title: "Account & privacy", render: () => <AccountPage /> },
  { id: "preferences", title: "Preferences", render: () => <PreferencesPage /> },
  { id: "notifications", title: "Notifications", render: () => <NotificationsPage /> },
  { id: "bots", title: "Bots", render: () => <BotsPage /> },
];

const ORGANIZATION: readonly Section[] = [
  { id: "channels", title: "Channels", render: (sub) => <ChannelsAdminPage sub={sub} /> },
  { id: "folders", title: "Channel folders", render: () => <FoldersAdminPage /> },
  { id: "groups", title: "User groups", render: (sub) => <GroupsAdminPage sub={sub} /> },
  { id: "linkifiers", title: "Linkifiers", render: () => <LinkifiersAdminPage /> },
  { id: "defaults", title: "Default user settings", render: () => <RealmDefaultsAdminPage /> },
  { id: "users", title: "Users", render: () => <UsersAdminPage /> },
  { id: "invitations", title: "Invitations", render: () => <InvitationsAdminPage /> },
];

/** Which section a path names: `[id]` for personal ones, `["organization", id, sub?]` for the rest. */
function resolve(path: string[], admin: boolean): { section: Section; organization: boolean; sub?: string } | { forbidden: true } {
  if (path[0] === "organization") {
    const section = ORGANIZATION.find((s) => s.id === path[1]) ?? ORGANIZATION[0];
    return admin ? { section, organization: true, sub: path[2] } : { forbidden: true };
  }
  return { section: PERSONAL.find((s) => s.id === path[0]) ?? PERSONAL[0], organization: false };
}

function NavList({ label, sections, prefix, current }: { label: string; sections: readonly Section[]; prefix: string[]; current: Section | null }) {
  return (
    <>
      <h2 class="settings-nav-heading" id={`settings-nav-${label}`}>
        {label}
      </h2>
      <ul aria-labelledby={`settings-nav-${label}`}>
        {sections.map((s) => (
          <li key={s.id}>
            <a href={settingsHref(...prefix, s.id)} aria-current={s === current ? "page" : undefined} class={s === current ? "active" : ""}>
              {s.title}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}

export function SettingsPage({ path }: SettingsPageProps) {
  const admin = useClientState(isAdmin);
  const found = resolve(path, admin);
  const heading = useRef<HTMLHeadingElement>(null);
  const key = path.join("/");
  useEffect(() => heading.current?.focus(), [key]);
  const current = "section" in found ? found.section : null;
  return (
    <div class="settings-page settings-layout">
      <nav class="settings-nav" aria-label="Settings">
        <a class="settings-back" href="#/">
          ← Back to messages
        </a>
        <NavList label="Personal" sections={PERSONAL} prefix={[]} current={"section" in found && !found.organization ? current : null} />
        {admin && <NavList label="Organization" sections={ORGANIZATION} prefix={["organization"]} current={"section" in found && found.organization ? current : null} />}
      </nav>
      <section class="settings-content" aria-labelledby="settings-title">
        <h1 id="settings-title" tabIndex={-1} ref={heading}>
          {current ? current.title : "Organization settings"}
        </h1>
        {"section" in found ? (
          found.section.render(found.sub)
        ) : (
          <p role="alert">Only organization administrators can see this page.</p>
        )}
      </section>
    </div>
  );
}
