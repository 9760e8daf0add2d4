/**
 * Per-user message flags (Zulip's UserMessage flags), stored as a bitmask in user_messages.flags.
 * `wildcard_mentioned` is not stored: it is the legacy OR of the two wildcard flags (spec section 2).
 */
export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
} as const;

export type FlagName = keyof typeof FLAG_BITS;

/** Flags a client may change with POST /messages/flags. */
export const EDITABLE_FLAGS: readonly FlagName[] = ["read", "starred", "collapsed"];

const ORDER = Object.keys(FLAG_BITS) as FlagName[];

/** The flag names a client sees for a bitmask, including the legacy wildcard_mentioned. */
export function flagNames(bits: number): string[] {
  const names: string[] = ORDER.filter((name) => (bits & FLAG_BITS[name]) !== 0);
  if ((bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0) {
    names.push("wildcard_mentioned");
  }
  return names;
}

export function isFlagName(name: string): name is FlagName {
  return Object.prototype.hasOwnProperty.call(FLAG_BITS, name);
}
