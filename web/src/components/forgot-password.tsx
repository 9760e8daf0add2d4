/**
 * "Forgot password?" on the login card: asks for the account's email and posts it to the server's
 * reset form (POST /accounts/password/reset/, src/http/password-reset-routes.ts), which mails a
 * link to choose a new password. The answer is the same whether or not the address has an
 * account, so the page cannot be used to find out who has one.
 */
import { useState } from "preact/hooks";

export function ForgotPassword({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [state, setState] = useState<{ kind: "idle" | "busy" } | { kind: "sent"; email: string } | { kind: "error"; message: string }>({ kind: "idle" });

  async function submit(event: Event) {
    event.preventDefault();
    setState({ kind: "busy" });
    try {
      const response = await fetch("/accounts/password/reset/", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: new URLSearchParams({ email: email.trim() }),
      });
      const body = (await response.json().catch(() => ({}))) as { msg?: string };
      setState(response.ok ? { kind: "sent", email: email.trim() } : { kind: "error", message: body.msg || `The server answered ${response.status}.` });
    } catch {
      setState({ kind: "error", message: "Could not reach the server." });
    }
  }

  return (
    <form class="login-card" onSubmit={submit} aria-labelledby="reset-title">
      <div class="brand" aria-hidden="true">
        P
      </div>
      <h1 id="reset-title">Reset your password</h1>
      {state.kind === "sent" ? (
        <p role="status">If an account exists for {state.email}, an email with a link to choose a new password is on its way.</p>
      ) : (
        <>
          <p class="login-note">Enter your email address and we will send you a link to choose a new password.</p>
          <label for="reset-email">Email</label>
          <input id="reset-email" type="email" autocomplete="username" required autofocus value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          {state.kind === "error" && (
            <p class="form-error" role="alert">
              {state.message}
            </p>
          )}
          <button type="submit" class="button primary wide" disabled={state.kind === "busy"}>
            {state.kind === "busy" ? "Sending…" : "Send reset link"}
          </button>
        </>
      )}
      <button type="button" class="link-button" onClick={onBack}>
        Back to login
      </button>
    </form>
  );
}
