/** Sign-in with email and password (POST /fetch_api_key), the first page a visitor sees. */
import { useEffect, useState } from "preact/hooks";
import { logIn } from "../api/auth";
import { ApiError, publicRequest, type Credentials } from "../api/client";
import { ForgotPassword } from "./forgot-password";

interface ServerSettings {
  realm_name?: string;
  realm_icon?: string;
  realm_description?: string;
}

export function LoginPage({ onLoggedIn }: { onLoggedIn: (credentials: Credentials) => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [realmName, setRealmName] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);

  useEffect(() => {
    publicRequest<ServerSettings>("GET", "/server_settings")
      .then((settings) => setRealmName(settings.realm_name ?? null))
      .catch(() => setRealmName(null));
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onLoggedIn(await logIn(email.trim(), password));
    } catch (e) {
      setError(e instanceof ApiError ? e.msg : "Could not reach the server.");
      setBusy(false);
    }
  }

  if (resetting) {
    return (
      <main class="login">
        <ForgotPassword initialEmail={email.trim()} onBack={() => setResetting(false)} />
      </main>
    );
  }

  return (
    <main class="login">
      <form class="login-card" onSubmit={submit} aria-labelledby="login-title">
        <div class="brand" aria-hidden="true">
          P
        </div>
        <h1 id="login-title">Log in to {realmName ?? "Parley"}</h1>
        <label for="login-email">Email</label>
        <input
          id="login-email"
          type="email"
          autocomplete="username"
          required
          autofocus
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="login-password">Password</label>
        <input
          id="login-password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="button primary wide" disabled={busy}>
          {busy ? "Logging in…" : "Log in"}
        </button>
        <button type="button" class="link-button" onClick={() => setResetting(true)}>
          Forgot password?
        </button>
      </form>
    </main>
  );
}
