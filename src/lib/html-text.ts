/**
 * Rendered message HTML as plain text, for the bodies of notifications (the text part of a
 * missed-message email, a push's `content`), as Zulip's get_mobile_push_content does: block
 * elements end lines, tags go, entities are decoded. Rendered HTML is our own sanitised output,
 * so a tag scan is enough here (no parser is needed to find text between tags).
 */

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const BLOCK_END = /<\/(p|div|li|h[1-6]|blockquote|pre|tr|table|ul|ol)>|<br\s*\/?>/gi;

export function htmlToText(html: string): string {
  const text = html
    .replace(BLOCK_END, "\n")
    .replace(/<img[^>]*\balt="([^"]*)"[^>]*>/gi, "$1")
    .replace(/<[^>]*>/g, "");
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Zulip's push content bound (truncate_content): 200 characters, then an ellipsis. */
export function truncateForPush(text: string, max = 200): { content: string; truncated: boolean } {
  const chars = [...text];
  return chars.length <= max ? { content: text, truncated: false } : { content: chars.slice(0, max).join("") + "…", truncated: true };
}
