/**
 * Organization › Invitations: send email invitations, create a reusable link, and manage pending
 * invitations (GET /invites; revoke with DELETE /invites/{id} or /invites/multiuse/{id}; resend an
 * email with POST /invites/{id}/resend). The list is fetched again on invites_changed events.
 */
import { useSession, useClientState } from "../session";
import { userName } from "../state/client-state";
import { ActionStatus, SettingsTable, useAction } from "./controls";
import { ROLE_LABELS } from "./admin-users";
import { CopyButton, EmailInviteForm, InviteLinkForm } from "./invite-forms";
import { EmailDeliveryNote } from "./email-delivery-note";
import { useFetched } from "./use-fetched";

interface Invite {
  id: number;
  invited_by_user_id: number;
  /** UNIX seconds. */
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  is_multiuse: boolean;
  email?: string;
  link_url?: string;
}

const REFRESH_ON = ["invites_changed"];

/** A date, with the full time on hover and for assistive technology. */
function When({ seconds }: { seconds: number }) {
  const date = new Date(seconds * 1000);
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString()}>
      {date.toLocaleDateString()}
    </time>
  );
}

function InviteRow({ invite, reload }: { invite: Invite; reload(): Promise<void> }) {
  const session = useSession();
  const inviter = useClientState((s) => userName(s, invite.invited_by_user_id));
  const action = useAction();
  const what = invite.is_multiuse ? "invitation link" : `invitation for ${invite.email}`;
  const revoke = async () => {
    if (!window.confirm(`Revoke the ${what}?`)) return;
    const path = invite.is_multiuse ? `/invites/multiuse/${invite.id}` : `/invites/${invite.id}`;
    if (await action.run(() => session.api.delete(path), "Revoked")) await reload();
  };
  const resend = () => void action.run(() => session.api.post(`/invites/${invite.id}/resend`), "Invitation sent again");
  return (
    <tr>
      <th scope="row">
        {invite.is_multiuse ? (
          <span class="settings-link-cell">
            <code title={invite.link_url}>{invite.link_url}</code>
            <CopyButton url={invite.link_url ?? ""} label="Copy the invitation link" />
          </span>
        ) : (
          invite.email
        )}
      </th>
      <td>{ROLE_LABELS.find(([role]) => role === invite.invited_as)?.[1] ?? invite.invited_as}</td>
      <td>
        {inviter}, <When seconds={invite.invited} />
      </td>
      <td>{invite.expiry_date === null ? "Never" : <When seconds={invite.expiry_date} />}</td>
      <td>
        <div class="settings-actions">
          {!invite.is_multiuse && (
            <button type="button" class="button" aria-label={`Resend the ${what}`} onClick={resend}>
              Resend
            </button>
          )}
          <button type="button" class="button button-danger" aria-label={`Revoke the ${what}`} onClick={() => void revoke()}>
            Revoke
          </button>
        </div>
        <ActionStatus state={action.state} />
      </td>
    </tr>
  );
}

function PendingInvites() {
  const session = useSession();
  const invites = useFetched(() => session.api.get<{ invites: Invite[] }>("/invites").then((r) => r.invites), REFRESH_ON);
  let body;
  if (invites.error) body = <p role="alert">{invites.error}</p>;
  else if (!invites.data) body = <p aria-busy="true">Loading invitations…</p>;
  else if (invites.data.length === 0) body = <p class="settings-empty">No pending invitations.</p>;
  else {
    body = (
      <SettingsTable caption="Pending invitations" columns={["Invitee or link", "Joins as", "Invited by", "Expires", "Actions"]}>
        {[...invites.data]
          .sort((a, b) => b.invited - a.invited)
          .map((invite) => (
            <InviteRow key={`${invite.is_multiuse}-${invite.id}`} invite={invite} reload={invites.reload} />
          ))}
      </SettingsTable>
    );
  }
  return (
    <section class="settings-card" aria-labelledby="pending-invites-title">
      <h2 id="pending-invites-title">Pending invitations</h2>
      {body}
    </section>
  );
}

export function InvitationsAdminPage() {
  return (
    <>
      <EmailDeliveryNote />
      <PendingInvites />
      <InviteLinkForm />
      <EmailInviteForm />
    </>
  );
}
