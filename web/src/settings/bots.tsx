/**
 * Personal settings › Bots (Zulip's "Your bots"): create a generic, incoming-webhook or
 * outgoing-webhook bot (POST /bots; an outgoing webhook needs the URL Parley posts to and its
 * payload format), and see each bot's API key (GET /bots lists the caller's bots with their keys,
 * as Zulip's does). The key of a bot just created is shown at once, with a copy button.
 */
import { useState } from "preact/hooks";
import { useClientState, useSession } from "../session";
import { Field, FormActions, SettingsTable, useAction } from "./controls";
import { CopyButton } from "./invite-forms";
import { useFetched } from "./use-fetched";

/** GET /bots answers the bot's email as `username`; its type comes from the realm's user list. */
interface OwnBot {
  full_name: string;
  username: string;
  api_key: string;
}

/** Zulip's bot types (zulip-openapi.yaml add-bot: 1 generic, 2 incoming webhook, 3 outgoing webhook). */
const BOT_TYPES = [
  [1, "Generic bot"],
  [2, "Incoming webhook"],
  [3, "Outgoing webhook"],
] as const;
/** Outgoing webhook payload formats (interface_type): 1 Zulip's generic, 2 Slack-compatible. */
const INTERFACES = [
  [1, "Generic"],
  [2, "Slack compatible"],
] as const;

function ApiKey({ bot }: { bot: OwnBot }) {
  const [shown, setShown] = useState(false);
  return shown ? (
    <span class="settings-link-cell bot-key-cell">
      <code class="bot-key">{bot.api_key}</code>
      <CopyButton url={bot.api_key} label={`Copy the API key of ${bot.full_name}`} />
    </span>
  ) : (
    <button type="button" class="button" onClick={() => setShown(true)} aria-label={`Show the API key of ${bot.full_name}`}>
      Show API key
    </button>
  );
}

function NewBotForm({ onCreated }: { onCreated(): Promise<void> }) {
  const session = useSession();
  const [fullName, setFullName] = useState("");
  const [shortName, setShortName] = useState("");
  const [botType, setBotType] = useState(1);
  const [payloadUrl, setPayloadUrl] = useState("");
  const [interfaceType, setInterfaceType] = useState(1);
  const [created, setCreated] = useState<{ name: string; email: string; key: string } | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const params: Record<string, unknown> = { full_name: fullName.trim(), short_name: shortName.trim(), bot_type: botType };
    if (botType === 3) Object.assign(params, { payload_url: payloadUrl.trim(), interface_type: interfaceType });
    const result = await action.run(() => session.api.post<{ api_key: string; user_id: number; email?: string }>("/bots", params), "Bot created");
    if (!result) return;
    setCreated({ name: fullName.trim(), email: result.email ?? "", key: result.api_key });
    setFullName("");
    setShortName("");
    await onCreated();
  };
  return (
    <form class="settings-card" aria-labelledby="new-bot-title" onSubmit={(e) => void submit(e)}>
      <h2 id="new-bot-title">Add a new bot</h2>
      <div class="settings-row">
        <Field id="bot-type" label="Bot type">
          <select id="bot-type" value={botType} onChange={(e) => setBotType(Number(e.currentTarget.value))}>
            {BOT_TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="bot-name" label="Name">
          <input id="bot-name" required maxLength={100} value={fullName} onInput={(e) => setFullName(e.currentTarget.value)} />
        </Field>
        <Field id="bot-short-name" label="Bot email (the part before -bot@)">
          <input id="bot-short-name" required maxLength={100} pattern="[A-Za-z0-9._\-]+" value={shortName} onInput={(e) => setShortName(e.currentTarget.value)} />
        </Field>
      </div>
      {botType === 3 && (
        <div class="settings-row">
          <Field id="bot-payload-url" label="Endpoint URL">
            <input id="bot-payload-url" type="url" required value={payloadUrl} onInput={(e) => setPayloadUrl(e.currentTarget.value)} />
          </Field>
          <Field id="bot-interface" label="Outgoing webhook message format">
            <select id="bot-interface" value={interfaceType} onChange={(e) => setInterfaceType(Number(e.currentTarget.value))}>
              {INTERFACES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
        </div>
      )}
      <FormActions label="Create bot" state={action.state} />
      {created && (
        <p class="new-bot-key" role="status">
          API key of {created.name}
          {created.email && ` (${created.email})`}: <code>{created.key}</code>
        </p>
      )}
    </form>
  );
}

export function BotsPage() {
  const session = useSession();
  const bots = useFetched(() => session.api.get<{ bots: OwnBot[] }>("/bots").then((r) => r.bots), ["realm_bot"]);
  const list = bots.data ?? [];
  const users = useClientState((s) => s.users);
  const typeOf = (email: string) => [...users.values()].find((u) => u.is_bot && u.email === email)?.bot_type;
  return (
    <>
      <NewBotForm onCreated={bots.reload} />
      <SettingsTable caption="Your bots" columns={["Name", "Type", "Email", "API key"]}>
        {list.map((bot) => (
          <tr key={bot.username}>
            <th scope="row">{bot.full_name}</th>
            <td>{BOT_TYPES.find(([t]) => t === typeOf(bot.username))?.[1] ?? ""}</td>
            <td>{bot.username}</td>
            <td>
              <ApiKey bot={bot} />
            </td>
          </tr>
        ))}
      </SettingsTable>
      {bots.data && list.length === 0 && <p>You have no bots yet.</p>}
    </>
  );
}
