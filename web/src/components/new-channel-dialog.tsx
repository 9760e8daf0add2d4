/**
 * Creating a channel from the sidebar, as any member may (POST /users/me/subscriptions with a new
 * name creates it; zulip-openapi.yaml). Folders and permissions are set in the settings pages.
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { narrowHref, navigate } from "../router";
import { useSession } from "../session";
import { Dialog } from "./dialog";

export function NewChannelDialog({ onClose }: { onClose: () => void }) {
  const session = useSession();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [invite, setInvite] = useState(false);
  const [everyone, setEveryone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const state = session.current;
      // principals: who is subscribed besides the creator (Zulip's "add all users" choice).
      const principals = everyone ? [...state.users.values()].filter((u) => u.is_active && !u.is_bot).map((u) => u.user_id) : [state.userId];
      await session.api.post("/users/me/subscriptions", { subscriptions: [{ name: name.trim(), description }], invite_only: invite, principals });
      const { stream_id } = await session.api.get<{ stream_id: number }>("/get_stream_id", { stream: name.trim() });
      onClose();
      navigate(narrowHref({ kind: "channel", streamId: stream_id }, name.trim()));
    } catch (e) {
      setError(e instanceof ApiError ? e.msg : String(e));
      setBusy(false);
    }
  }

  return (
    <Dialog title="Create a channel" onClose={onClose}>
      <form class="form" onSubmit={submit}>
        <label for="new-channel-name">Name</label>
        <input id="new-channel-name" required maxLength={60} value={name} autofocus onInput={(e) => setName(e.currentTarget.value)} />
        <label for="new-channel-description">Description</label>
        <input id="new-channel-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <label class="checkbox">
          <input type="checkbox" checked={invite} onChange={(e) => setInvite(e.currentTarget.checked)} />
          Private: only invited people can see it
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={everyone} onChange={(e) => setEveryone(e.currentTarget.checked)} />
          Subscribe everyone in the organization
        </label>
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <div class="form-actions">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy || name.trim() === ""}>
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}
