/**
 * Navigation views (Zulip's get/add/edit/remove-navigation-view, FL 390): a user's settings for
 * the left sidebar's built-in views (pinned or under "More views") and their own custom views,
 * each named by its URL fragment. Only the owner sees or changes them; their clients hear of every
 * change (`navigation_view` add / update / remove) and POST /register lists them. Checks and
 * wording follow zerver/views/navigation_views.py; the bounds on lengths and count are Parley's
 * (docs/LIMITS.md), as Zulip sets none.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { strippedText } from "../../lib/validate.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import {
  countNavigationViews,
  deleteNavigationView,
  getNavigationView,
  insertNavigationView,
  listNavigationViews,
  navigationViewNameTaken,
  updateNavigationView,
  type NavigationViewRow,
} from "../../store/navigation-views.js";
import type { UserRow } from "../../store/types.js";

/** Zulip's BUILT_IN_VIEW_FRAGMENTS: views every client has, which take no custom name. */
export const BUILT_IN_VIEW_FRAGMENTS: ReadonlySet<string> = new Set([
  "inbox",
  "recent",
  "feed",
  "drafts",
  "narrow/has/reaction/sender/me",
  "narrow/is/mentioned",
  "narrow/is/starred",
]);

/** Parley's bounds: a fragment fits in a URL path segment of the router, and a unique index. */
export const MAX_FRAGMENT_LENGTH = 500;
export const MAX_VIEW_NAME_LENGTH = 200;
export const MAX_NAVIGATION_VIEWS = 200;

export const checkFragment = (fragment: string) => strippedText("fragment", fragment, MAX_FRAGMENT_LENGTH);
export const checkViewName = (name: string) => strippedText("name", name, MAX_VIEW_NAME_LENGTH);

const alreadyExists = () => new ApiError("Navigation view already exists.");
const doesNotExist = () => new ApiError("Navigation view does not exist.", "BAD_REQUEST", 404);
const builtInNamed = () => new ApiError("Built-in views cannot have a custom name.");

/** Zulip's NavigationView.to_api_dict. */
function presentView(row: Pick<NavigationViewRow, "fragment" | "is_pinned" | "name">): Record<string, unknown> {
  return { fragment: row.fragment, is_pinned: row.is_pinned, name: row.name };
}

/** The `navigation_views` section of POST /register. */
export async function navigationViewsState(tx: Tx, user: UserRow): Promise<{ navigation_views: Record<string, unknown>[] }> {
  return { navigation_views: (await listNavigationViews(tx, user.id)).map(presentView) };
}

/** GET /navigation_views. */
export async function getOwnNavigationViews(deps: AppDeps, user: UserRow): Promise<Record<string, unknown>[]> {
  return (await navigationViewsState(readTx(deps.store), user)).navigation_views;
}

export interface NewNavigationView {
  fragment: string;
  isPinned: boolean;
  name?: string;
}

/** POST /navigation_views: `fragment` and `name` come stripped and non-blank. */
export async function checkAddNavigationView(deps: AppDeps, user: UserRow, view: NewNavigationView): Promise<void> {
  if (BUILT_IN_VIEW_FRAGMENTS.has(view.fragment)) {
    if (view.name !== undefined) throw builtInNamed();
  } else if (view.name === undefined) {
    throw new ApiError("Custom views must have a valid name.");
  }
  await transaction(deps.store, async (tx) => {
    if (await getNavigationView(tx, user.id, view.fragment)) throw alreadyExists();
    if (view.name !== undefined && (await navigationViewNameTaken(tx, user.id, view.name))) throw alreadyExists();
    if ((await countNavigationViews(tx, user.id)) >= MAX_NAVIGATION_VIEWS) {
      throw new ApiError(`You can have at most ${MAX_NAVIGATION_VIEWS} navigation views.`);
    }
    const row = { user_id: user.id, fragment: view.fragment, is_pinned: view.isPinned, name: view.name ?? null };
    // Two requests for one fragment at once: the one that lost finds it existing.
    if (!(await insertNavigationView(tx, row))) throw alreadyExists();
    publishOnCommit(tx, deps.events, { type: "navigation_view", op: "add", navigation_view: presentView(row) }, [user.id]);
  });
}

/**
 * PATCH /navigation_views/{fragment}. As in Zulip, a request changing nothing still succeeds and
 * tells the user's clients, with empty `data`, and a name is refused when any view has it already,
 * this one included.
 */
export async function checkUpdateNavigationView(deps: AppDeps, user: UserRow, fragment: string, changes: { isPinned?: boolean; name?: string }): Promise<void> {
  if (BUILT_IN_VIEW_FRAGMENTS.has(fragment) && changes.name !== undefined) throw builtInNamed();
  await transaction(deps.store, async (tx) => {
    if (changes.name !== undefined && (await navigationViewNameTaken(tx, user.id, changes.name))) throw alreadyExists();
    const view = await getNavigationView(tx, user.id, fragment);
    if (!view) throw doesNotExist();
    const data: { is_pinned?: boolean; name?: string } = {};
    if (changes.name !== undefined) data.name = changes.name;
    if (changes.isPinned !== undefined) data.is_pinned = changes.isPinned;
    await updateNavigationView(tx, view.id, data);
    publishOnCommit(tx, deps.events, { type: "navigation_view", op: "update", fragment, data }, [user.id]);
  });
}

/** DELETE /navigation_views/{fragment}. */
export async function checkRemoveNavigationView(deps: AppDeps, user: UserRow, fragment: string): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const view = await getNavigationView(tx, user.id, fragment);
    if (!view) throw doesNotExist();
    await deleteNavigationView(tx, view.id);
    publishOnCommit(tx, deps.events, { type: "navigation_view", op: "remove", fragment }, [user.id]);
  });
}
