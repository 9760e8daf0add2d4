/**
 * Inline previews of linked images and videos, as Zulip's backend adds them:
 *
 *   <div class="message_inline_image"><a href="URL" title="link text"><img src="URL"></a></div>
 *   <div class="message_inline_image message_inline_video"><a href="URL"><video preload="metadata" src="URL"></video></a></div>
 *
 * A preview goes right after the paragraph holding the link (inside the list item or spoiler
 * that holds it); links elsewhere (headings, tables) get theirs at the end of the message. A
 * paragraph that is nothing but the bare URL is replaced by the preview. Each URL is previewed
 * once, links inside quotes are not previewed, and a message with more than 24 distinct URLs
 * gets no previews at all. `title` is set only for named links. The picture is loaded from its own
 * URL, as Zulip does without Camo, or through the Camo proxy when CAMO_URL is set (camo.ts).
 *
 * A link to an upload of this realm (`/user_uploads/…`) is previewed, when the caller passed the
 * realm's uploaded images (`uploadPreviews`), only if it is one of them, by its thumbnail, as
 * Zulip renders it once its thumbnails exist (attributes in its serializer's sorted order):
 *
 *   <img data-original-content-type="image/png" data-original-dimensions="1920x1080"
 *        src="/user_uploads/thumbnail/2/ab/cdef/cat.png/840x560.webp">
 *
 * with `data-animated="true"` for an animation and `data-transcoded-image` for a type browsers
 * cannot show.
 */
import type { StateCore, Token } from "markdown-it";
import { camoUrl } from "./camo.js";
import { escapeHtml } from "./html.js";
import { uploadPathId } from "./sanitize.js";
import type { RenderEnv, UploadPreview } from "./types.js";

export const PREVIEW_TOKEN = "zulip_preview";
const PREVIEW_LIMIT = 24;
const IMAGE_EXTENSIONS = /\.(?:bmp|gif|jpe|jpeg|jpg|png|webp)$/i;
/** Zulip's supported video types: MP4, WebM and, since feature level 495, QuickTime (.mov, .qt). */
const VIDEO_EXTENSIONS = /\.(?:mp4|webm|mov|qt)$/i;

function urlPath(href: string): string {
  return href.replace(/[?#].*$/, "");
}

const UPLOADS_PREFIX = "/user_uploads/";

function thumbnailImg(href: string, preview: UploadPreview): string {
  const attrs: Array<[string, string]> = [];
  if (preview.animated) attrs.push(["data-animated", "true"]);
  attrs.push(["data-original-content-type", preview.contentType]);
  attrs.push(["data-original-dimensions", `${preview.width}x${preview.height}`]);
  if (preview.transcoded !== null) attrs.push(["data-transcoded-image", preview.transcoded]);
  attrs.push(["src", `${UPLOADS_PREFIX}thumbnail/${urlPath(href).slice(UPLOADS_PREFIX.length)}/${preview.thumbnail}`]);
  return `<img ${attrs.map(([name, value]) => `${name}="${escapeHtml(value)}"`).join(" ")}>`;
}

/**
 * What the preview loads: through the Camo proxy when one is configured and the file is on another
 * host, so readers' browsers never contact that host (Zulip's is_static_or_current_realm_url keeps
 * relative and same-realm URLs as they are).
 */
function proxied(env: RenderEnv, href: string): string {
  const elsewhere = /^https?:\/\//i.test(href) && !href.startsWith(`${env.ctx.realmUrl}/`);
  return env.ctx.camo && elsewhere ? camoUrl(env.ctx.camo, href) : href;
}

function previewHtml(env: RenderEnv, href: string, title: string | undefined): string | null {
  const path = urlPath(href);
  const a = `<a href="${escapeHtml(href)}"${title === undefined ? "" : ` title="${escapeHtml(title)}"`}>`;
  const uploads = env.ctx.uploadPreviews;
  if (uploads && href.startsWith(UPLOADS_PREFIX)) {
    const pathId = uploadPathId(href, env.ctx.realmUrl);
    const preview = pathId === null ? undefined : uploads.get(pathId);
    if (preview) return `<div class="message_inline_image">${a}${thumbnailImg(href, preview)}</a></div>`;
  } else if (IMAGE_EXTENSIONS.test(path)) {
    return `<div class="message_inline_image">${a}<img src="${escapeHtml(proxied(env, href))}"></a></div>`;
  }
  if (VIDEO_EXTENSIONS.test(path)) {
    return `<div class="message_inline_image message_inline_video">${a}<video preload="metadata" src="${escapeHtml(proxied(env, href))}"></video></a></div>`;
  }
  return null;
}

interface FoundLink {
  href: string;
  text: string;
}

function linksIn(inline: Token): FoundLink[] {
  const found: FoundLink[] = [];
  const children = inline.children ?? [];
  for (let i = 0; i < children.length; i++) {
    if (children[i].type !== "link_open") continue;
    let text = "";
    let j = i + 1;
    for (; j < children.length && children[j].type !== "link_close"; j++) text += children[j].content;
    found.push({ href: String(children[i].attrGet("href") ?? ""), text });
    i = j;
  }
  return found;
}

/** The paragraph's only content is one link whose text is its URL. */
function isBareUrlParagraph(inline: Token, link: FoundLink): boolean {
  const children = inline.children ?? [];
  return children.length === 3 && children[0].type === "link_open" && link.text === link.href;
}

export function addPreviews(state: StateCore): void {
  const env = state.env as RenderEnv;
  const tokens = state.tokens;
  let quoteDepth = 0;
  const previewable = new Set<string>();
  for (const token of tokens) {
    if (token.type === "blockquote_open") quoteDepth++;
    else if (token.type === "blockquote_close") quoteDepth--;
    else if (token.type === "inline" && quoteDepth === 0) for (const l of linksIn(token)) previewable.add(l.href);
  }
  if (previewable.size === 0 || previewable.size > PREVIEW_LIMIT) return;

  const out: Token[] = [];
  const atEnd: Token[] = [];
  const done = new Set<string>();
  quoteDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === "blockquote_open") quoteDepth++;
    else if (token.type === "blockquote_close") quoteDepth--;
    if (token.type !== "inline" || quoteDepth > 0) {
      out.push(token);
      continue;
    }
    const previews: Token[] = [];
    let removeParagraph = false;
    for (const link of linksIn(token)) {
      if (done.has(link.href)) continue;
      done.add(link.href);
      const html = previewHtml(env, link.href, link.text === link.href ? undefined : link.text);
      if (html === null) continue;
      const preview = new state.Token(PREVIEW_TOKEN, "", 0);
      preview.content = html;
      previews.push(preview);
      // Zulip's has_image counts pictures, not videos.
      if (html.includes("<img ")) env.result.hasImage = true;
      if (isBareUrlParagraph(token, link)) removeParagraph = true;
    }
    const inParagraph = tokens[i - 1]?.type === "paragraph_open";
    if (!inParagraph) {
      out.push(token);
      atEnd.push(...previews);
      continue;
    }
    if (removeParagraph) {
      out.pop(); // paragraph_open
      out.push(...previews);
    } else {
      out.push(token, tokens[i + 1], ...previews);
    }
    i++; // paragraph_close, already handled
  }
  state.tokens = [...out, ...atEnd];
}
