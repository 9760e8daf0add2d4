/**
 * Hash routing, so the server only ever serves index.html at `/` and every view has a link:
 * `#/narrow/channel/12-general/topic/lunch`, `#/narrow/dm/8,9`, `#/narrow/search/word`,
 * `#/narrow/is/starred`, `#/narrow/is/mentioned`, `#/settings/<section>/…` for the settings
 * pages (web/src/settings), `#/drafts` and `#/scheduled`. Zulip's own `#narrow/…` links (without the slash) are read too.
 */
import { useEffect, useState } from "preact/hooks";

export type Narrow =
  | { kind: "all" }
  | { kind: "channel"; streamId: number }
  | { kind: "topic"; streamId: number; topic: string }
  | { kind: "dm"; userIds: number[] }
  | { kind: "search"; query: string }
  | { kind: "starred" }
  | { kind: "mentions" };

export type Route = { page: "messages"; narrow: Narrow } | { page: "settings"; path: string[] } | { page: "drafts" } | { page: "scheduled" };

const decode = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

function parseNarrow(parts: string[]): Narrow {
  const [kind, operand = "", sub, subOperand] = parts;
  const id = Number.parseInt(operand, 10);
  if ((kind === "channel" || kind === "stream") && Number.isInteger(id)) {
    return sub === "topic" && subOperand !== undefined ? { kind: "topic", streamId: id, topic: decode(subOperand) } : { kind: "channel", streamId: id };
  }
  if (kind === "dm" || kind === "pm-with") {
    const ids = operand.split("-")[0].split(",").map(Number).filter(Number.isInteger);
    if (ids.length > 0) return { kind: "dm", userIds: ids };
  }
  if (kind === "search" && operand) return { kind: "search", query: decode(operand) };
  if (kind === "is" && operand === "starred") return { kind: "starred" };
  if (kind === "is" && operand === "mentioned") return { kind: "mentions" };
  return { kind: "all" };
}

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter((p) => p !== "");
  if (parts[0] === "settings") return { page: "settings", path: parts.slice(1).map(decode) };
  if (parts[0] === "narrow") return { page: "messages", narrow: parseNarrow(parts.slice(1)) };
  // Zulip's `#drafts`, `#scheduled` and `#reminders` views (compose/drafts-view, scheduled-view).
  if (parts[0] === "drafts") return { page: "drafts" };
  if (parts[0] === "scheduled" || parts[0] === "reminders") return { page: "scheduled" };
  return { page: "messages", narrow: { kind: "all" } };
}

/** A readable slug after the id, as in Zulip's links (`12-general`). */
const slug = (name: string) => encodeURIComponent(name.replace(/\s+/g, "-").toLowerCase());

export function narrowHref(narrow: Narrow, channelName = ""): string {
  switch (narrow.kind) {
    case "all":
      return "#/";
    case "channel":
      return `#/narrow/channel/${narrow.streamId}-${slug(channelName)}`;
    case "topic":
      return `#/narrow/channel/${narrow.streamId}-${slug(channelName)}/topic/${encodeURIComponent(narrow.topic)}`;
    case "dm":
      return `#/narrow/dm/${[...narrow.userIds].sort((a, b) => a - b).join(",")}`;
    case "search":
      return `#/narrow/search/${encodeURIComponent(narrow.query)}`;
    case "starred":
      return "#/narrow/is/starred";
    case "mentions":
      return "#/narrow/is/mentioned";
  }
}

export function settingsHref(...path: string[]): string {
  return `#/settings/${path.map(encodeURIComponent).join("/")}`;
}

export function navigate(href: string): void {
  if (window.location.hash !== href) window.location.hash = href;
}

/** The current route, following hash changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(window.location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
