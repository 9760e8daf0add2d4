/**
 * Organization › Users (spec 4.11): every account with its role, which administrators change
 * (PATCH /users/{id} role; only owners grant or remove the owner role), deactivate (DELETE
 * /users/{id}) and reactivate (POST /users/{id}/reactivate). The list is the client state's users,
 * kept current by realm_user events.
 */
import { useState } from "preact/hooks";
import { isSystemBot, ROLE } from "../state/client-state";
import type { User } from "../state/types";
import { useClientState, useSession } from "../session";
import { ActionStatus, SettingsTable, useAction, useOptimistic } from "./controls";

export const ROLE_LABELS: ReadonlyArray<readonly [role: number, label: string]> = [
  [ROLE.owner, "Owner"],
  [ROLE.admin, "Administrator"],
  [ROLE.moderator, "Moderator"],
  [ROLE.member, "Member"],
  [ROLE.guest, "Guest"],
];

type View = "active" | "deactivated" | "bots";

function UserRow({ user, myId, iAmOwner }: { user: User; myId: number; iAmOwner: boolean }) {
  const session = useSession();
  const action = useAction();
  const self = user.user_id === myId;
  // Notification Bot and the other system bots belong to the server, not the organization:
  // nobody can change their role or deactivate them (Zulip's cross_realm_bots).
  const system = isSystemBot(user);
  // Only owners may change or deactivate an owner (Zulip's rule), so others see those controls disabled.
  const ownerOnly = user.role === ROLE.owner && !iAmOwner;
  // Nor is the owner role offered to those who may not grant it.
  const roles = ROLE_LABELS.filter(([role]) => iAmOwner || role !== ROLE.owner || user.role === ROLE.owner);
  const [shownRole, chooseRole] = useOptimistic(user.role);
  const setRole = (next: number) => chooseRole(next, action.run(() => session.api.patch(`/users/${user.user_id}`, { role: next }), "Role changed"));
  const deactivate = () => {
    if (window.confirm(`Deactivate ${user.full_name}? They will be logged out immediately.`)) {
      void action.run(() => session.api.delete(`/users/${user.user_id}`), "User deactivated");
    }
  };
  const reactivate = () => void action.run(() => session.api.post(`/users/${user.user_id}/reactivate`), "User reactivated");
  return (
    <tr>
      <th scope="row">
        {user.full_name}
        {self && <span class="settings-badge">you</span>}
      </th>
      <td>{user.delivery_email || user.email}</td>
      <td>
        {system ? (
          "System bot"
        ) : (
          <>
            <label class="visually-hidden" for={`role-${user.user_id}`}>
              Role of {user.full_name}
            </label>
            <select
              id={`role-${user.user_id}`}
              value={String(shownRole)}
              disabled={!user.is_active || ownerOnly}
              onChange={(e) => setRole(Number((e.currentTarget as HTMLSelectElement).value))}
            >
              {roles.map(([role, label]) => (
                <option key={role} value={String(role)}>
                  {label}
                </option>
              ))}
            </select>
          </>
        )}
      </td>
      <td>{user.date_joined ? new Date(user.date_joined).toLocaleDateString() : "—"}</td>
      <td>
        {system ? null : user.is_active ? (
          <button type="button" class="button button-danger" disabled={self || ownerOnly} onClick={deactivate} aria-label={`Deactivate ${user.full_name}`}>
            Deactivate
          </button>
        ) : (
          <button type="button" class="button" onClick={reactivate} aria-label={`Reactivate ${user.full_name}`}>
            Reactivate
          </button>
        )}
        <ActionStatus state={action.state} />
      </td>
    </tr>
  );
}

export function UsersAdminPage() {
  const users = useClientState((s) => [...s.users.values()]);
  const myId = useClientState((s) => s.userId);
  const iAmOwner = useClientState((s) => s.users.get(s.userId)?.role === ROLE.owner);
  const [view, setView] = useState<View>("active");
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const shown = users
    .filter((u) => (view === "bots" ? u.is_bot : !u.is_bot && u.is_active === (view === "active")))
    .filter((u) => needle === "" || u.full_name.toLowerCase().includes(needle) || (u.delivery_email || u.email).toLowerCase().includes(needle))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title" class="visually-hidden">
        Users
      </h2>
      <div class="settings-toolbar">
        <div role="group" aria-label="Which users" class="segmented">
          {(["active", "deactivated", "bots"] as const).map((v) => (
            <button key={v} type="button" class="button" aria-pressed={view === v} onClick={() => setView(v)}>
              {v === "active" ? "Active users" : v === "deactivated" ? "Deactivated users" : "Bots"}
            </button>
          ))}
        </div>
        <label class="visually-hidden" for="user-filter">
          Filter users
        </label>
        <input id="user-filter" type="search" placeholder="Filter users" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <SettingsTable caption="Users" columns={["Name", "Email", "Role", "Joined", "Actions"]}>
        {shown.map((u) => (
          <UserRow key={u.user_id} user={u} myId={myId} iAmOwner={iAmOwner} />
        ))}
      </SettingsTable>
      {shown.length === 0 && <p class="settings-empty">No users match.</p>}
    </section>
  );
}
