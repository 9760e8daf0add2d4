/**
 * Tells administrators when the server does not really send email: without SMTP_URL, Parley
 * writes each outgoing message as a file under VAR_DIR/mail instead (src/mail/transport.ts), so
 * invitation and password-reset emails reach nobody. The fact comes from Parley's own
 * GET /parley/server-facts (outside Zulip's API; src/http/server-facts-routes.ts). Nothing is
 * shown while it loads, when mail is sent, or when the server has no such route.
 */
import { useEffect, useState } from "preact/hooks";
import { useSession } from "../session";

export function EmailDeliveryNote() {
  const session = useSession();
  const [delivery, setDelivery] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetch("/parley/server-facts", { headers: { Authorization: session.api.authorization }, signal: abort.signal })
      .then((r) => (r.ok ? (r.json() as Promise<{ email_delivery?: string }>) : null))
      .then((facts) => setDelivery(facts?.email_delivery ?? null))
      .catch(() => undefined);
    return () => abort.abort();
  }, [session]);
  if (delivery !== "file") return null;
  return (
    <p class="settings-warning" role="note">
      This server does not send email: it has no mail server configured (<code>SMTP_URL</code>), so invitation emails are only written to files on the server
      (under <code>VAR_DIR/mail</code>). Share an invitation link instead, or ask the server's operator to set <code>SMTP_URL</code>.
    </p>
  );
}
