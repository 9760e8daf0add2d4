/**
 * What a message might refer to, read straight from its source so the sender's code can fetch
 * just those rows before rendering. It errs on the side of listing too much (it does not know
 * about code blocks), never too little.
 */

export interface References {
  /** Names from @**Name** and @**Name|id** (as typed; look them up case-insensitively). */
  userNames: string[];
  /** Ids from @**Name|id** and @**|id**. */
  userIds: number[];
  /** Names from @*group*. */
  groupNames: string[];
  /** Channel names from #**channel** and #**channel>topic**. */
  channelNames: string[];
  /** Topics linked by #**channel>topic** (not message links), whose latest message the link names. */
  topicLinks: Array<{ channelName: string; topic: string }>;
  /** Names in :name: syntax, which may be realm emoji. */
  realmEmojiNames: string[];
}

const USER_MENTION = /@_?\*\*([^*]+)\*\*/g;
const GROUP_MENTION = /@_?\*([^*]+)\*/g;
const CHANNEL_LINK = /#\*\*([^*>]+)(?:>[^*]*)?\*\*/g;
const TOPIC_LINK = /#\*\*([^*>]+)>([^*]*)\*\*/g;
const MESSAGE_LINK_TOPIC = /@\d+$/;

/** How a linked topic is looked up: channel and topic names match case-insensitively. */
export function topicLinkKey(channelName: string, topic: string): string {
  return `${channelName.toLowerCase()}\u0000${topic.toLowerCase()}`;
}
const EMOJI = /:([\p{L}\p{N}_+-]+):/gu;
const WILDCARDS = new Set(["all", "everyone", "channel", "stream", "topic"]);

export function collectReferences(content: string): References {
  const userNames = new Set<string>();
  const userIds = new Set<number>();
  const groupNames = new Set<string>();
  const channelNames = new Set<string>();
  const realmEmojiNames = new Set<string>();

  for (const [, name] of content.matchAll(USER_MENTION)) {
    const withId = /^(.*)\|(\d+)$/s.exec(name);
    if (withId) userIds.add(Number(withId[2]));
    else if (!WILDCARDS.has(name)) userNames.add(name);
  }
  // "@**x**" also looks like "@*" + "*x*"; group names cannot start with "*", so those are skipped.
  for (const [, name] of content.matchAll(GROUP_MENTION)) groupNames.add(name);
  for (const [, name] of content.matchAll(CHANNEL_LINK)) channelNames.add(name);
  const topicLinks = new Map<string, { channelName: string; topic: string }>();
  for (const [, channelName, topic] of content.matchAll(TOPIC_LINK)) {
    if (!MESSAGE_LINK_TOPIC.test(topic)) topicLinks.set(topicLinkKey(channelName, topic), { channelName, topic });
  }
  if (content.includes(":")) {
    // Matches may share their colons (":a:b:"), so step one character at a time.
    EMOJI.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = EMOJI.exec(content)) !== null) {
      realmEmojiNames.add(m[1]);
      EMOJI.lastIndex = m.index + 1;
    }
  }
  return {
    userNames: [...userNames],
    userIds: [...userIds],
    groupNames: [...groupNames],
    channelNames: [...channelNames],
    topicLinks: [...topicLinks.values()],
    realmEmojiNames: [...realmEmojiNames],
  };
}
