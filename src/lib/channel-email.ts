/**
 * A channel's email gateway address as Zulip's encode_email_address builds it: the gateway pattern
 * (EMAIL_GATEWAY_PATTERN, `%s@host`) around `<name>.<token>.show-sender`, where <name> is an ASCII
 * form of the channel name, left out when the name cannot be written in ASCII without losing
 * letters. No pattern (no gateway): "".
 */

/** Django's slugify without allow_unicode: ASCII folding, lower case, runs of dashes and spaces → "-". */
function slugify(value: string): string {
  const ascii = value.normalize("NFKD").replace(/[^\p{ASCII}]/gu, "");
  return ascii
    .toLowerCase()
    .replace(/[^\w\s-]/g, "")
    .replace(/[-\s]+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "");
}

/** The name part: non-word runs become "-" (Python's Unicode \W), kept only if slugifying drops no character. */
export function channelEmailName(channelName: string): string {
  const name = channelName.replace(/[^\p{L}\p{N}_]+/gu, "-");
  const slug = slugify(name);
  return [...slug].length === [...name].length ? slug : "";
}

export function encodeChannelEmailAddress(pattern: string, channelName: string, token: string): string {
  if (pattern === "") return "";
  const name = channelEmailName(channelName);
  const local = `${name ? `${name}.` : ""}${token}.show-sender`;
  return pattern.replace("%s", local);
}
