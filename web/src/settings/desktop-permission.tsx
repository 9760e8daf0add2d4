/**
 * The browser's side of desktop notifications: whether this browser lets Parley show them
 * (Notification.permission) and a button to ask, since browsers only ask after a click. The
 * server-side settings below it decide which messages notify (api/desktop-notifier.ts).
 */
import { useState } from "preact/hooks";
import { notificationApi } from "../api/desktop-notifier";

const STATE_TEXT: Record<NotificationPermission, string> = {
  granted: "This browser shows Parley's desktop notifications.",
  denied: "This browser blocks Parley's desktop notifications; allow them in the browser's site settings.",
  default: "This browser has not been allowed to show Parley's desktop notifications yet.",
};

export function DesktopPermission() {
  const api = notificationApi();
  const [permission, setPermission] = useState<NotificationPermission | null>(api ? api.permission : null);
  return (
    <section class="settings-card" aria-labelledby="desktop-permission-title">
      <h2 id="desktop-permission-title">Desktop notifications in this browser</h2>
      <p role="status">{permission ? STATE_TEXT[permission] : "This browser cannot show desktop notifications."}</p>
      {api && permission === "default" && (
        <button type="button" class="button primary" onClick={() => void api.requestPermission().then(setPermission)}>
          Allow desktop notifications
        </button>
      )}
    </section>
  );
}
