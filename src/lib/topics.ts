/**
 * Topic names (spec conventions 5; zulip-facts section c): the empty topic is valid; clients that
 * don't opt in with allow_empty_topic_name see it as realm_empty_topic_display_name.
 */
export const MAX_TOPIC_LENGTH = 60;
export const EMPTY_TOPIC_DISPLAY_NAME = "general chat";
/** Legacy placeholder clients send for "no topic"; read as the empty topic. */
export const NO_TOPIC_PLACEHOLDER = "(no topic)";
/** A resolved topic starts with this marker (Zulip's RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_TOPIC_PREFIX = "✔ ";

/** Topic as sent → as stored: trimmed, placeholders mean "", over-long ones truncated with "...". */
export function normalizeTopic(raw: string): string {
  const topic = raw.trim();
  if (topic === NO_TOPIC_PLACEHOLDER || topic === EMPTY_TOPIC_DISPLAY_NAME) return "";
  const chars = [...topic];
  return chars.length > MAX_TOPIC_LENGTH ? chars.slice(0, MAX_TOPIC_LENGTH - 3).join("") + "..." : topic;
}

/** Topic as stored → as shown to a client. */
export function displayTopic(topic: string, allowEmptyTopicName: boolean): string {
  return topic === "" && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}

export function isResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_TOPIC_PREFIX);
}
