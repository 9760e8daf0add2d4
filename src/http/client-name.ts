/**
 * The `client` recorded on messages, as Zulip derives it: the product token of the User-Agent
 * ("ZulipMobile/27.1 (Android)" → "ZulipMobile"), else "API"; at most 30 characters.
 */
const MAX_CLIENT_NAME_LENGTH = 30;

export function clientName(userAgent: string | undefined): string {
  const token = userAgent?.trim().split(/[/\s]/)[0] ?? "";
  const clean = token.replace(/[^\w.+-]/g, "");
  return (clean || "API").slice(0, MAX_CLIENT_NAME_LENGTH);
}
