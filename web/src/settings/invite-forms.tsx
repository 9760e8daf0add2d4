/**
 * The two ways to invite (spec 4.9): email invitations (POST /invites) and a reusable invitation
 * link (POST /invites/multiuse), which share their options: the role (equal to or stricter than
 * your own, spec 5.5), the channels to join (default channels preselected) and the expiry.
 */
import { useState } from "preact/hooks";
import { useClientState, useSession } from "../session";
import { Field, FormActions, TextField, useAction } from "./controls";
import { ROLE_LABELS } from "./admin-users";

/** Minutes, with null for never; 14400 (10 days) is the server's default (spec 4.9). */
const EXPIRY_CHOICES: ReadonlyArray<readonly [minutes: number | null, label: string]> = [
  [30, "30 minutes"],
  [24 * 60, "1 day"],
  [14400, "10 days"],
  [30 * 24 * 60, "30 days"],
  [null, "Never"],
];

interface InviteOptions {
  inviteAs: number;
  streamIds: number[];
  expiresInMinutes: number | null;
}

const paramsOf = (o: InviteOptions) => ({ invite_as: o.inviteAs, stream_ids: o.streamIds, invite_expires_in_minutes: o.expiresInMinutes });

function useInviteOptions(): [InviteOptions, (o: InviteOptions) => void] {
  const defaults = useClientState((s) => (s.register.realm_default_streams ?? []) as number[]);
  return useState<InviteOptions>({ inviteAs: 400, streamIds: defaults, expiresInMinutes: 14400 });
}

function InviteOptionsFields({ idPrefix, value, onChange }: { idPrefix: string; value: InviteOptions; onChange(o: InviteOptions): void }) {
  const myRole = useClientState((s) => s.users.get(s.userId)?.role ?? 400);
  const channels = useClientState((s) => [...s.channels.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name)));
  const toggle = (id: number, on: boolean) => onChange({ ...value, streamIds: on ? [...value.streamIds, id] : value.streamIds.filter((s) => s !== id) });
  return (
    <>
      <div class="settings-row">
        <Field id={`${idPrefix}-role`} label="Users join as">
          <select id={`${idPrefix}-role`} value={String(value.inviteAs)} onChange={(e) => onChange({ ...value, inviteAs: Number((e.currentTarget as HTMLSelectElement).value) })}>
            {ROLE_LABELS.filter(([role]) => role >= myRole).map(([role, label]) => (
              <option key={role} value={String(role)}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${idPrefix}-expiry`} label="Invitation expires after">
          <select
            id={`${idPrefix}-expiry`}
            value={String(EXPIRY_CHOICES.findIndex(([m]) => m === value.expiresInMinutes))}
            onChange={(e) => onChange({ ...value, expiresInMinutes: EXPIRY_CHOICES[Number((e.currentTarget as HTMLSelectElement).value)][0] })}
          >
            {EXPIRY_CHOICES.map(([, label], i) => (
              <option key={label} value={String(i)}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <fieldset class="settings-group">
        <legend>Channels they join</legend>
        {channels.length === 0 && <p class="settings-empty">No channels yet.</p>}
        <div class="settings-columns">
          {channels.map((c) => (
            <div key={c.stream_id} class="settings-checkbox">
              <input id={`${idPrefix}-channel-${c.stream_id}`} type="checkbox" checked={value.streamIds.includes(c.stream_id)} onChange={(e) => toggle(c.stream_id, (e.currentTarget as HTMLInputElement).checked)} />
              <label for={`${idPrefix}-channel-${c.stream_id}`}>#{c.name}</label>
            </div>
          ))}
        </div>
      </fieldset>
    </>
  );
}

export function EmailInviteForm() {
  const session = useSession();
  const [emails, setEmails] = useState("");
  const [options, setOptions] = useInviteOptions();
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const sent = await action.run(() => session.api.post("/invites", { invitee_emails: emails, ...paramsOf(options) }), "Invitations sent");
    if (sent) setEmails("");
  };
  return (
    <form class="settings-card" aria-labelledby="email-invite-title" onSubmit={(e) => void submit(e)}>
      <h2 id="email-invite-title">Invite by email</h2>
      <TextField id="invite-emails" label="Email addresses" hint="Separate addresses with commas or new lines." rows={3} value={emails} onValue={setEmails} />
      <InviteOptionsFields idPrefix="email-invite" value={options} onChange={setOptions} />
      <FormActions label="Send invitations" state={action.state} />
    </form>
  );
}

/** Copies `url` to the clipboard, saying so on the button. */
export function CopyButton({ url, label }: { url: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setCopied(true);
  };
  return (
    <button type="button" class="button" aria-label={label} onClick={() => void copy()}>
      {copied ? "Copied" : "Copy"}
    </button>
  );
}

/** A link just created: shown in full in a read-only box (selected on focus) with a copy button. */
function CopyableLink({ id, label, url }: { id: string; label: string; url: string }) {
  return (
    <div class="copyable">
      <label class="visually-hidden" for={id}>
        {label}
      </label>
      <input id={id} type="text" readOnly value={url} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
      <CopyButton url={url} label={`Copy the ${label.toLowerCase()}`} />
    </div>
  );
}

export function InviteLinkForm() {
  const session = useSession();
  const [options, setOptions] = useInviteOptions();
  const [link, setLink] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const created = await action.run(() => session.api.post<{ invite_link: string }>("/invites/multiuse", paramsOf(options)), "Link created");
    if (created) setLink(created.invite_link);
  };
  return (
    <form class="settings-card" aria-labelledby="link-invite-title" onSubmit={(e) => void submit(e)}>
      <h2 id="link-invite-title">Create an invitation link</h2>
      <p class="settings-muted">Anyone with the link can join until it expires or is revoked.</p>
      <InviteOptionsFields idPrefix="link-invite" value={options} onChange={setOptions} />
      <FormActions label="Create link" state={action.state} />
      {link && <CopyableLink id="new-invite-link" label="Invitation link" url={link} />}
    </form>
  );
}
