/**
 * A message's HTML as the server rendered it (rendered_content), made interactive: spoilers open
 * and close, emoji spans show their character, <time> shows the reader's local time, external
 * links open in a new tab, and uploads (/user_uploads/…) open through a temporary URL from
 * GET /user_uploads/{realm_id}/{filename}, so they work with or without the cookie session.
 */
import { useEffect, useRef } from "preact/hooks";
import type { ApiClient } from "../api/client";
import { emojiFromCode } from "../format";
import { useSession } from "../session";

const UPLOAD_PATH = /^\/user_uploads\/(\d+\/.+)$/;

function uploadPath(href: string | null): string | null {
  if (!href) return null;
  try {
    const url = new URL(href, window.location.origin);
    if (url.origin !== window.location.origin) return null;
    return UPLOAD_PATH.exec(url.pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** A credential-free URL for an upload, valid for a short while (zulip-openapi.yaml). */
export async function temporaryUploadUrl(api: ApiClient, path: string): Promise<string> {
  const { url } = await api.get<{ url: string }>(`/user_uploads/${path}`);
  return url;
}

function enhance(root: HTMLElement, api: ApiClient): void {
  for (const span of root.querySelectorAll<HTMLElement>("span.emoji")) {
    const code = [...span.classList].find((c) => c.startsWith("emoji-") && c !== "emoji")?.slice("emoji-".length);
    if (code && /^[0-9a-f-]+$/.test(code)) span.textContent = emojiFromCode(code);
  }
  for (const time of root.querySelectorAll<HTMLTimeElement>("time[datetime]")) {
    const date = new Date(time.dateTime);
    if (!Number.isNaN(date.getTime())) time.textContent = date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }
  for (const header of root.querySelectorAll<HTMLElement>(".spoiler-header")) {
    header.setAttribute("role", "button");
    header.setAttribute("tabindex", "0");
    header.setAttribute("aria-expanded", "false");
  }
  for (const link of root.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    const external = !link.href.startsWith(window.location.origin);
    if (external || uploadPath(link.getAttribute("href"))) {
      link.target = "_blank";
      link.rel = "noopener noreferrer";
    }
  }
  for (const img of root.querySelectorAll<HTMLImageElement>("img")) {
    img.loading = "lazy";
    const path = uploadPath(img.getAttribute("src"));
    // Without the cookie session the <img> request is refused; a temporary URL needs none.
    if (path) img.addEventListener("error", () => void temporaryUploadUrl(api, path).then((url) => (img.src = url)).catch(() => undefined), { once: true });
  }
}

function toggleSpoiler(header: HTMLElement): void {
  const block = header.closest(".spoiler-block");
  if (!block) return;
  const open = block.classList.toggle("open");
  header.setAttribute("aria-expanded", String(open));
  block.querySelector(".spoiler-content")?.setAttribute("aria-hidden", String(!open));
}

export function RenderedContent({ html, class: className = "rendered" }: { html: string; class?: string }) {
  const session = useSession();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current) enhance(ref.current, session.api);
  }, [html, session]);

  function onClick(event: MouseEvent) {
    const target = event.target as HTMLElement;
    const header = target.closest<HTMLElement>(".spoiler-header");
    if (header) return toggleSpoiler(header);
    const link = target.closest<HTMLAnchorElement>("a[href]");
    const path = uploadPath(link?.getAttribute("href") ?? null);
    if (!link || !path) return;
    event.preventDefault();
    // Opened before the request so the browser treats it as the click's own window (no popup block).
    const opened = window.open("about:blank", "_blank");
    temporaryUploadUrl(session.api, path)
      .then((url) => {
        if (opened) opened.location.href = url;
        else window.location.href = url;
      })
      .catch(() => opened?.close());
  }

  function onKeyDown(event: KeyboardEvent) {
    const header = (event.target as HTMLElement).closest<HTMLElement>(".spoiler-header");
    if (header && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      toggleSpoiler(header);
    }
  }

  return <div ref={ref} class={className} dangerouslySetInnerHTML={{ __html: html }} onClick={onClick} onKeyDown={onKeyDown} />;
}
