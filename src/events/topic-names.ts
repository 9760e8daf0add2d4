/**
 * The empty topic for clients that did not declare the empty_topic_name capability (FL 334,
 * spec section 1 convention 5): every channel topic name an event carries reads as
 * realm_empty_topic_display_name instead of "".
 */
import { displayTopic } from "../lib/topics.js";
import type { ChatEvent } from "./bus.js";

const show = (topic: unknown) => (typeof topic === "string" ? displayTopic(topic, false) : topic);

/** The event with each channel topic name shown as a client without empty_topic_name expects. */
export function withTopicDisplayNames(event: ChatEvent): ChatEvent {
  switch (event.type) {
    case "message": {
      const message = event.message as Record<string, unknown>;
      return message.type === "stream" ? { ...event, message: { ...message, subject: show(message.subject) } } : event;
    }
    case "update_message":
      if (!("stream_id" in event)) return event;
      return { ...event, ...("subject" in event && { subject: show(event.subject) }), ...("orig_subject" in event && { orig_subject: show(event.orig_subject) }) };
    case "delete_message":
    case "typing":
      return "topic" in event ? { ...event, topic: show(event.topic) } : event;
    case "typing_edit_message": {
      const recipient = event.recipient as Record<string, unknown>;
      return recipient.type === "channel" ? { ...event, recipient: { ...recipient, topic: show(recipient.topic) } } : event;
    }
    case "user_topic":
      return { ...event, topic_name: show(event.topic_name) };
    case "update_message_flags": {
      if (!event.message_details) return event;
      const details = Object.entries(event.message_details as Record<string, Record<string, unknown>>).map(([id, d]) => [id, d.type === "stream" ? { ...d, topic: show(d.topic) } : d]);
      return { ...event, message_details: Object.fromEntries(details) };
    }
    default:
      return event;
  }
}
