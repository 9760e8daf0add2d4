/**
 * A user's picture, or their initials when there is none or it cannot load. Gravatar pictures
 * (a server with ENABLE_GRAVATAR) are never fetched: offline networks cannot reach them and each
 * page would log an error (issue 20), so those users show their initials. Without a URL (the
 * client_gravatar convention) the server's own avatar route, `/avatar/{user_id}`, is asked.
 */
import { useState } from "preact/hooks";
import { initials } from "../format";

const GRAVATAR_HOST = /(^|\.)gravatar\.com$/i;

/** The address to load for an avatar, or null to show initials. */
export function avatarSource(url: string | null | undefined, userId: number | undefined): string | null {
  if (!url) return userId === undefined ? null : `/avatar/${userId}`;
  try {
    return GRAVATAR_HOST.test(new URL(url, window.location.origin).hostname) ? null : url;
  } catch {
    return null;
  }
}

export function Avatar({ url, userId, name, small = false }: { url: string | null | undefined; userId?: number; name: string; small?: boolean }) {
  const [failed, setFailed] = useState(false);
  const size = small ? "avatar small" : "avatar";
  const src = avatarSource(url, userId);
  if (src && !failed) return <img class={size} src={src} alt="" loading="lazy" onError={() => setFailed(true)} />;
  return (
    <span class={`${size} placeholder`} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
