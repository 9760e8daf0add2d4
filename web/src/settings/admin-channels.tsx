/**
 * Organization › Channels: every channel, archived ones included (GET /streams with include_all,
 * exclude_archived=false and include_default), a filter, and the routes `…/channels/new` (create)
 * and `…/channels/<id>` (edit). The list is fetched again on stream, subscription and
 * default_streams events.
 */
import { useEffect, useState } from "preact/hooks";
import { RenderedContent } from "../components/rendered-content";
import { settingsHref } from "../router";
import type { Channel } from "../state/types";
import { useClientState, useSession } from "../session";
import { ChannelCreateForm } from "./channel-create";
import { SettingsTable } from "./controls";
import { ChannelEditor } from "./channel-edit";
import { PRIVACY_LABELS, privacyOf } from "./channel-options";
import { useFetched } from "./use-fetched";

const REFRESH_ON = ["stream", "subscription", "default_streams", "channel_folder"];

function ChannelTable({ channels }: { channels: readonly Channel[] }) {
  const folders = useClientState((s) => s.channelFolders);
  const [filter, setFilter] = useState("");
  const [showArchived, setShowArchived] = useState(false);
  const needle = filter.trim().toLowerCase();
  const shown = channels
    .filter((c) => showArchived === Boolean(c.is_archived))
    .filter((c) => needle === "" || c.name.toLowerCase().includes(needle) || c.description.toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <div class="settings-toolbar">
        <label class="visually-hidden" for="channel-filter">
          Filter channels
        </label>
        <input id="channel-filter" type="search" placeholder="Filter channels" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
        <label class="settings-inline">
          <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived((e.currentTarget as HTMLInputElement).checked)} /> Show archived channels
        </label>
        <a class="button primary" href={settingsHref("organization", "channels", "new")}>
          Create channel
        </a>
      </div>
      <SettingsTable caption="Channels" columns={["Name", "Access", "Folder", "Subscribers", "Default"]}>
        {shown.map((c) => (
          <tr key={c.stream_id}>
            <th scope="row">
              <a href={settingsHref("organization", "channels", String(c.stream_id))}>#{c.name}</a>
              {c.rendered_description && <RenderedContent html={c.rendered_description} class="rendered settings-muted" />}
            </th>
            <td>{PRIVACY_LABELS[privacyOf(c)]}</td>
            <td>{folders.find((f) => f.id === c.folder_id)?.name ?? "—"}</td>
            <td>{String(c.subscriber_count ?? "—")}</td>
            <td>{c.is_default ? "Yes" : "No"}</td>
          </tr>
        ))}
      </SettingsTable>
      {shown.length === 0 && <p class="settings-empty">No channels match.</p>}
    </>
  );
}

export function ChannelsAdminPage({ sub }: { sub: string | undefined }) {
  const session = useSession();
  const list = useFetched(
    () => session.api.get<{ streams: Channel[] }>("/streams", { include_all: true, exclude_archived: false, include_default: true }).then((r) => r.streams),
    REFRESH_ON,
  );
  const channel = list.data?.find((c) => String(c.stream_id) === sub);
  const missing = list.data !== undefined && sub !== undefined && sub !== "new" && channel === undefined;
  // A channel just created may not be in the list fetched before it: fetch once more.
  useEffect(() => void (missing && list.reload()), [missing, sub]);
  if (sub === "new") return <ChannelCreateForm />;
  if (list.error) return <p role="alert">{list.error}</p>;
  if (!list.data) return <p aria-busy="true">Loading channels…</p>;
  if (sub !== undefined) return channel ? <ChannelEditor key={channel.stream_id} channel={channel} /> : <p>No such channel.</p>;
  return <ChannelTable channels={list.data} />;
}
