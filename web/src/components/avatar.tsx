/** A user's picture, or their initials when there is none or it cannot load (e.g. offline Gravatar). */
import { useState } from "preact/hooks";
import { initials } from "../format";

export function Avatar({ url, name, small = false }: { url: string | null | undefined; name: string; small?: boolean }) {
  const [failed, setFailed] = useState(false);
  const size = small ? "avatar small" : "avatar";
  if (url && !failed) return <img class={size} src={url} alt="" loading="lazy" onError={() => setFailed(true)} />;
  return (
    <span class={`${size} placeholder`} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
