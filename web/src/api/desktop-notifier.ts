/**
 * Desktop notifications through the browser's Notification API for new messages that the user's
 * settings say deserve one (state/desktop-notify.ts). Nothing is shown while the reader is
 * looking at that very conversation, or when the browser has not been granted permission (the
 * Notifications settings page asks for it). Clicking a notification opens the conversation.
 * `window.Notification` is read at each message, so a page (or a test) may install it late.
 */
import { narrowHref } from "../router";
import { shouldNotifyDesktop } from "../state/desktop-notify";
import type { ClientState } from "../state/client-state";
import type { Message, ServerEvent } from "../state/types";
import { dmKeyOfMessage } from "../state/unread";

export interface NotifierHost {
  /** Each batch of events with the state just after each of them (session.tsx). */
  onEvents(listener: (events: ServerEvent[], statesAfter: readonly ClientState[]) => void): () => void;
}

/** The browser's Notification constructor, when there is one. */
export function notificationApi(): typeof Notification | undefined {
  return typeof window !== "undefined" && "Notification" in window ? window.Notification : undefined;
}

function plainText(html: string, max = 150): string {
  const text = (new DOMParser().parseFromString(html, "text/html").body.textContent ?? "").replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function conversationHref(state: ClientState, message: Message): string {
  if (message.type === "stream" && message.stream_id !== undefined) {
    return narrowHref({ kind: "topic", streamId: message.stream_id, topic: message.subject }, state.channels.get(message.stream_id)?.name);
  }
  return narrowHref({ kind: "dm", userIds: dmKeyOfMessage(message, state.userId).split(",").map(Number) });
}

function titleOf(state: ClientState, message: Message): string {
  if (message.type === "stream") return `${message.sender_full_name} (#${state.channels.get(message.stream_id ?? 0)?.name ?? "channel"} > ${message.subject})`;
  const others = Array.isArray(message.display_recipient) ? message.display_recipient.length - 2 : 0;
  return others > 0 ? `${message.sender_full_name} (to you and ${others} ${others === 1 ? "other" : "others"})` : message.sender_full_name;
}

export function showMessageNotification(state: ClientState, message: Message, flags: readonly string[]): boolean {
  const Api = notificationApi();
  if (!Api || Api.permission !== "granted" || !shouldNotifyDesktop(state, message, flags)) return false;
  const href = conversationHref(state, message);
  if (document.visibilityState === "visible" && document.hasFocus() && window.location.hash === href) return false;
  const hideContent = message.type !== "stream" && state.userSettings.pm_content_in_desktop_notifications === false;
  const notification = new Api(titleOf(state, message), {
    body: hideContent ? `New direct message from ${message.sender_full_name}` : plainText(message.content),
    tag: `message-${message.id}`,
  });
  notification.onclick = () => {
    window.focus();
    window.location.hash = href;
    notification.close();
  };
  return true;
}

/** Listens for message events; returns the function that stops listening. */
export function startDesktopNotifier(host: NotifierHost): () => void {
  return host.onEvents((events, statesAfter) => {
    events.forEach((event, i) => {
      // The state as of this message: a later event of the same poll (the topic followed because
      // of the next message's mention, a setting turned on) must not decide this one.
      const state = statesAfter[i];
      if (event.type !== "message" || !state) return;
      const message = event.message as Message;
      showMessageNotification(state, message, (event.flags as string[] | undefined) ?? message.flags ?? []);
    });
  });
}
