/**
 * What creating and editing a channel share (spec 4.3): the privacy choices Zulip offers, the
 * can_*_group permissions with their labels, and the folder select.
 */
import type { Channel } from "../state/types";
import { useClientState } from "../session";
import { Field } from "./controls";
import type { Permission } from "./pickers";

export type Privacy = "public" | "web_public" | "private_shared" | "private_protected";

export function privacyOf(channel: Channel): Privacy {
  if (channel.is_web_public) return "web_public";
  if (!channel.invite_only) return "public";
  return channel.history_public_to_subscribers ? "private_shared" : "private_protected";
}

/** The flags of a privacy choice; public channels always show their history to new subscribers. */
export function privacyFlags(privacy: Privacy): { private: boolean; is_web_public: boolean; history_public_to_subscribers: boolean } {
  return {
    private: privacy === "private_shared" || privacy === "private_protected",
    is_web_public: privacy === "web_public",
    history_public_to_subscribers: privacy !== "private_protected",
  };
}

export const PRIVACY_LABELS: Record<Privacy, string> = {
  public: "Public",
  web_public: "Web-public",
  private_shared: "Private, shared history",
  private_protected: "Private, protected history",
};

const PRIVACY_HINTS: Record<Privacy, string> = {
  public: "Members can join and read the history; guests must be subscribed.",
  web_public: "Anyone on the internet can view the messages; members can join.",
  private_shared: "Must be invited; new subscribers can read the whole history.",
  private_protected: "Must be invited; new subscribers see only messages sent after they joined.",
};

export function PrivacyFieldset({ value, onChange, idPrefix }: { value: Privacy; onChange(p: Privacy): void; idPrefix: string }) {
  // Web-public needs the server's WEB_PUBLIC_STREAMS_ENABLED and the realm's spectator access (spec 4.3).
  const webPublicAllowed = useClientState((s) => Boolean(s.register.server_web_public_streams_enabled) && Boolean(s.realm.realm_enable_spectator_access));
  const choices = (Object.keys(PRIVACY_LABELS) as Privacy[]).filter((p) => p !== "web_public" || webPublicAllowed || value === "web_public");
  return (
    <fieldset class="settings-group">
      <legend>Who can access the channel?</legend>
      {choices.map((p) => (
        <div key={p} class="settings-radio">
          <input type="radio" id={`${idPrefix}-privacy-${p}`} name={`${idPrefix}-privacy`} checked={value === p} aria-describedby={`${idPrefix}-privacy-${p}-hint`} onChange={() => onChange(p)} />
          <label for={`${idPrefix}-privacy-${p}`}>{PRIVACY_LABELS[p]}</label>
          <small id={`${idPrefix}-privacy-${p}-hint`} class="settings-hint">
            {PRIVACY_HINTS[p]}
          </small>
        </div>
      ))}
    </fieldset>
  );
}

export const CHANNEL_PERMISSIONS: readonly Permission[] = [
  { name: "can_send_message_group", label: "Who can post to the channel", allowEveryone: true },
  { name: "can_create_topic_group", label: "Who can start new topics", allowEveryone: true },
  { name: "can_administer_channel_group", label: "Who can administer the channel", allowEveryone: false },
  { name: "can_subscribe_group", label: "Who can subscribe themselves", allowEveryone: false },
  { name: "can_add_subscribers_group", label: "Who can subscribe others", allowEveryone: false },
  { name: "can_remove_subscribers_group", label: "Who can unsubscribe others", allowEveryone: true },
  { name: "can_move_messages_within_channel_group", label: "Who can move messages between topics", allowEveryone: true },
  { name: "can_move_messages_out_of_channel_group", label: "Who can move messages out of the channel", allowEveryone: true },
  { name: "can_resolve_topics_group", label: "Who can resolve topics", allowEveryone: true },
  { name: "can_delete_own_message_group", label: "Who can delete their own messages", allowEveryone: true },
  { name: "can_delete_any_message_group", label: "Who can delete any message", allowEveryone: true },
];

/** The folder a channel is in: null for none; archived folders are offered only if already chosen. */
export function FolderSelect({ id, value, onChange }: { id: string; value: number | null; onChange(folderId: number | null): void }) {
  const folders = useClientState((s) => s.channelFolders);
  const offered = folders.filter((f) => !f.is_archived || f.id === value);
  return (
    <Field id={id} label="Folder">
      <select id={id} value={value === null ? "" : String(value)} onChange={(e) => {
        const raw = (e.currentTarget as HTMLSelectElement).value;
        onChange(raw === "" ? null : Number(raw));
      }}>
        <option value="">No folder</option>
        {offered.map((f) => (
          <option key={f.id} value={String(f.id)}>
            {f.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
