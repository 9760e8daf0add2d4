/**
 * Zulip-flavoured Markdown: message source + realm data -> HTML, plus what the message implies
 * (who is mentioned, which uploads it links, whether it is a /me message…). Pure: no database,
 * network or environment access. See docs/markdown-conformance.md for how closely the output
 * follows Zulip's.
 *
 * Typical use when sending a message:
 *
 *   const refs = collectReferences(content);          // fetch only the rows these name
 *   const ctx = buildMarkdownContext({ realmUrl, users, groups, channels, realmEmoji, linkifiers });
 *   const result = renderMarkdown(content, ctx, { alertWords });
 */
import type { CamoSettings } from "./camo.js";
import { findAlertWords } from "./alert-words.js";
import { engine } from "./engine.js";
import { compileLinkifiers } from "./linkifiers.js";
import { reindentLists } from "./lists.js";
import type {
  LinkableChannel,
  Linkifier,
  MarkdownContext,
  MentionableGroup,
  MentionableUser,
  RealmEmojiInfo,
  RenderEnv,
  RenderOptions,
  RenderResult,
  UploadPreview,
} from "./types.js";

export { collectReferences, topicLinkKey, type References } from "./references.js";
export { renderTopicLinks } from "./linkifiers.js";
export type {
  LinkableChannel,
  Linkifier,
  MarkdownContext,
  MentionableGroup,
  MentionableUser,
  RealmEmojiInfo,
  RenderOptions,
  RenderResult,
  UploadPreview,
} from "./types.js";

export interface ContextInput {
  realmUrl: string;
  users?: MentionableUser[];
  groups?: MentionableGroup[];
  channels?: LinkableChannel[];
  topicMessageIds?: Map<string, number>;
  realmEmoji?: RealmEmojiInfo[];
  linkifiers?: Linkifier[];
  translateEmoticons?: boolean;
  uploadPreviews?: Map<string, UploadPreview>;
  camo?: CamoSettings | null;
}

/** Builds the lookup maps renderMarkdown() wants from plain row lists. */
export function buildMarkdownContext(input: ContextInput): MarkdownContext {
  const usersByName = new Map<string, MentionableUser[]>();
  const usersById = new Map<number, MentionableUser>();
  for (const user of input.users ?? []) {
    const key = user.full_name.toLowerCase();
    usersByName.set(key, [...(usersByName.get(key) ?? []), user]);
    usersById.set(user.id, user);
  }
  return {
    realmUrl: input.realmUrl.replace(/\/+$/, ""),
    usersByName,
    usersById,
    groupsByName: new Map((input.groups ?? []).map((g) => [g.name.toLowerCase(), g])),
    channelsByName: new Map((input.channels ?? []).map((c) => [c.name.toLowerCase(), c])),
    topicMessageIds: input.topicMessageIds,
    realmEmoji: new Map((input.realmEmoji ?? []).map((e) => [e.name, e])),
    linkifiers: input.linkifiers ?? [],
    translateEmoticons: input.translateEmoticons ?? false,
    uploadPreviews: input.uploadPreviews,
    camo: input.camo ?? null,
  };
}

/**
 * Zulip's is_me_message: the source starts with "/me " and renders to a single paragraph (the
 * "/me" stays in the HTML; clients replace it with the sender's name).
 */
function isMeMessage(content: string, html: string): boolean {
  if (!content.startsWith("/me ")) return false;
  const trimmed = html.trim();
  return trimmed.startsWith("<p>/me ") && trimmed.endsWith("</p>") && trimmed.indexOf("<p>", 1) < 0;
}

export function renderMarkdown(content: string, ctx: MarkdownContext, options: RenderOptions = {}): RenderResult {
  const result: RenderResult = {
    html: "",
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    wildcard: null,
    linkedChannelIds: new Set(),
    isMeMessage: false,
    attachmentPathIds: [],
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    alertWordsFound: [],
  };
  const env: RenderEnv = { ctx, linkifiers: compileLinkifiers(ctx.linkifiers), inQuote: false, result };
  // Zulip's output has no trailing newline; markdown-it ends each block with one.
  result.html = engine().render(reindentLists(content), env).replace(/\n+$/, "");
  result.isMeMessage = isMeMessage(content, result.html);
  result.hasAttachment = result.attachmentPathIds.length > 0;
  result.alertWordsFound = findAlertWords(content, options.alertWords ?? []);
  return result;
}
