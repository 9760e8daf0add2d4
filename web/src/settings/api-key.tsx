/**
 * Account › API key: the user's own key, shown after they enter their password again, as Zulip's
 * web app asks before showing it. The key comes from POST /fetch_api_key with the user's email and
 * that password (the same exchange the login page makes), so a wrong password is the server's
 * own refusal. The key is never kept in the page's state once the card is closed.
 */
import { useState } from "preact/hooks";
import { publicRequest } from "../api/client";
import { me } from "../state/client-state";
import { useClientState } from "../session";
import { Field, FormActions, useAction } from "./controls";
import { CopyButton } from "./invite-forms";

export function ApiKeyCard() {
  const email = useClientState((s) => me(s)?.delivery_email || me(s)?.email || "");
  const [password, setPassword] = useState("");
  const [key, setKey] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const result = await action.run(() => publicRequest<{ api_key: string }>("POST", "/fetch_api_key", { username: email, password }));
    setPassword("");
    if (result) setKey(result.api_key);
  };
  if (key) {
    return (
      <section class="settings-card" aria-labelledby="api-key-title">
        <h2 id="api-key-title">API key</h2>
        <p>
          Your API key: <code id="own-api-key">{key}</code>
        </p>
        <div class="settings-row">
          <CopyButton url={key} label="Copy your API key" />
          <button type="button" class="button" onClick={() => setKey(null)}>
            Hide
          </button>
        </div>
      </section>
    );
  }
  return (
    <form class="settings-card" aria-labelledby="api-key-title" onSubmit={(e) => void submit(e)}>
      <h2 id="api-key-title">API key</h2>
      <p>Enter your password to see your API key, which lets programs act as you.</p>
      <Field id="api-key-password" label="Password">
        <input id="api-key-password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </Field>
      <FormActions label="Show API key" state={action.state} />
    </form>
  );
}
