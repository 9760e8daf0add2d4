/**
 * The application root: the login page without credentials; with them, a Session (register and
 * the event loop) and the signed-in shell, whose main area follows the hash route: a message
 * narrow, or the settings pages (`#/settings/…`, web/src/settings).
 */
import { useEffect, useState } from "preact/hooks";
import { credentialsFromSession, loadCredentials } from "./api/auth";
import { ApiError, type Credentials } from "./api/client";
import { LoginPage } from "./components/login-page";
import { Shell } from "./components/shell";
import { useRoute } from "./router";
import { Session, SessionContext } from "./session";
import { useStore } from "./state/store";

function SignedIn({ session }: { session: Session }) {
  const ready = useStore(session.state, (state) => state !== null);
  const [error, setError] = useState<string | null>(null);
  const route = useRoute();
  useEffect(() => {
    session.start().catch((e: unknown) => {
      // A key from an earlier sign-in that no longer works (revoked, user deactivated): sign in again.
      if (e instanceof ApiError && e.status === 401) void session.logout();
      else setError(e instanceof Error ? e.message : String(e));
    });
  }, [session]);
  if (error) {
    return (
      <main class="splash">
        <p role="alert">Could not connect: {error}</p>
        <button type="button" class="button" onClick={() => void session.logout()}>
          Sign in again
        </button>
      </main>
    );
  }
  if (!ready) {
    return (
      <main class="splash" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Shell route={route} />
    </SessionContext.Provider>
  );
}

export function App() {
  const [credentials, setCredentials] = useState<Credentials | null>(() => loadCredentials());
  const [session, setSession] = useState<Session | null>(null);
  // `#/joined`: the join form signed the newcomer in with a cookie session (src/invites).
  const [joining, setJoining] = useState(() => !credentials && window.location.hash === "#/joined");
  useEffect(() => {
    if (!joining) return;
    void credentialsFromSession().then((found) => {
      history.replaceState(null, "", "#/");
      if (found) setCredentials(found);
      setJoining(false);
    });
  }, [joining]);
  useEffect(() => {
    if (!credentials) return setSession(null);
    setSession(new Session(credentials, () => setCredentials(null)));
  }, [credentials]);
  if (joining) {
    return (
      <main class="splash" aria-busy="true">
        <p>Signing you in…</p>
      </main>
    );
  }
  if (!credentials) return <LoginPage onLoggedIn={setCredentials} />;
  return session ? <SignedIn key={session.api.email} session={session} /> : null;
}
