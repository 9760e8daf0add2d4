/** Shapes shared by the renderer's parts, and its public input and output types. */
import type { CamoSettings } from "./camo.js";
import type { Env } from "markdown-it";

export interface MentionableUser {
  id: number;
  full_name: string;
  email: string;
  /** Mentions of deactivated users render, but silently (no notification), as in Zulip. */
  is_active?: boolean;
}

export interface MentionableGroup {
  id: number;
  name: string;
  /** Mentions of deactivated groups render silently, as in Zulip. */
  deactivated?: boolean;
}

export interface LinkableChannel {
  id: number;
  name: string;
}

export interface RealmEmojiInfo {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

export interface Linkifier {
  id: number;
  /** Zulip syntax: Python-style regex, named groups as `(?P<name>...)`. */
  pattern: string;
  /** RFC 6570 URL template, expanded with the pattern's named groups. */
  url_template: string;
}

/**
 * An uploaded image with thumbnails (Zulip's MarkdownImageMetadata): a link to it is previewed by
 * its thumbnail, `/user_uploads/thumbnail/{path}/{thumbnail}`.
 */
export interface UploadPreview {
  /** The thumbnail format to show, e.g. "840x560.webp" or "840x560-anim.webp". */
  thumbnail: string;
  animated: boolean;
  /** The original's upright size in pixels. */
  width: number;
  height: number;
  contentType: string;
  /** A full-size still for a type browsers cannot show (e.g. "4032x3024.webp"), else null. */
  transcoded: string | null;
}

/** Realm data the renderer needs; look up what collectReferences() lists and build it with buildMarkdownContext(). */
export interface MarkdownContext {
  /** e.g. "https://chat.example.com", no trailing slash. Links into the realm become relative. */
  realmUrl: string;
  /** Keyed by lowercased full name; several users may share a name. */
  usersByName: Map<string, MentionableUser[]>;
  usersById: Map<number, MentionableUser>;
  /** Keyed by lowercased group name. */
  groupsByName: Map<string, MentionableGroup>;
  /** Keyed by lowercased channel name. */
  channelsByName: Map<string, LinkableChannel>;
  /**
   * The message id a topic link names (`/with/<id>`), keyed by topicLinkKey(channel, topic): the
   * topic's latest message the author can read. Topics without one link without `/with/`.
   */
  topicMessageIds?: Map<string, number>;
  /** Keyed by emoji name (case-sensitive, as Zulip stores them). */
  realmEmoji: Map<string, RealmEmojiInfo>;
  linkifiers: Linkifier[];
  /** The sender's translate_emoticons setting: `:)` becomes `:slight_smile:`. */
  translateEmoticons?: boolean;
  /**
   * Uploaded images by path id. When given, a `/user_uploads/…` link is previewed only if its
   * upload is here (as its thumbnail); when absent, uploads are previewed by extension.
   */
  uploadPreviews?: Map<string, UploadPreview>;
  /** Camo proxy settings: previews of images and videos on other hosts load through it. */
  camo?: CamoSettings | null;
}

export interface RenderOptions {
  /** Alert words of everyone who may see the message; found ones are reported back. */
  alertWords?: string[];
}

export interface RenderResult {
  html: string;
  /** Users mentioned non-silently (and active); they get the `mentioned` flag. */
  mentionedUserIds: Set<number>;
  /** Groups mentioned non-silently; the caller expands them to members. */
  mentionedGroupIds: Set<number>;
  /**
   * Non-silent wildcard mention: `stream` for @**all**, @**everyone**, @**channel** or
   * @**stream**; `topic` for @**topic**. A message with both reports `stream`, which already reaches everyone.
   */
  wildcard: "stream" | "topic" | null;
  /** Channels referenced by #**channel** or #**channel>topic** links. */
  linkedChannelIds: Set<number>;
  /** Zulip's is_me_message: a one-paragraph message starting with "/me ". */
  isMeMessage: boolean;
  /** Path ids of links to /user_uploads/… in this realm, e.g. "2/ab/cdef/file.txt". */
  attachmentPathIds: string[];
  hasLink: boolean;
  hasImage: boolean;
  /** Whether any link points at an upload; the caller confirms the ids belong to the sender. */
  hasAttachment: boolean;
  /** Alert words (from options.alertWords, as given) that occur in the message. */
  alertWordsFound: string[];
}

/** Per-render state, carried through markdown-it as its `env`. */
export interface RenderEnv extends Env {
  ctx: MarkdownContext;
  linkifiers: CompiledLinkifier[];
  /** Set by our inline-parse rule while the current inline token sits inside a blockquote. */
  inQuote: boolean;
  result: RenderResult;
}

export interface CompiledLinkifier {
  regex: RegExp;
  template: { expand(vars: Record<string, string>): string };
}
