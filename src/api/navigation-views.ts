/**
 * Navigation views (Zulip's get/add/edit/remove-navigation-view, FL 390). A view is named by its
 * fragment, which holds slashes ("narrow/is/starred"): the path takes the rest of the URL, sent
 * with its slashes as they are or percent-encoded.
 */
import {
  checkAddNavigationView,
  checkFragment,
  checkRemoveNavigationView,
  checkUpdateNavigationView,
  checkViewName,
  getOwnNavigationViews,
} from "../actions/users/navigation-views.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const getNavigationViews = endpoint({
  method: "GET",
  path: "/navigation_views",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { navigation_views: await getOwnNavigationViews(ctx.deps, ctx.user) };
  },
});

export const addNavigationView = endpoint({
  method: "POST",
  path: "/navigation_views",
  auth: "user",
  params: { fragment: p.str().check(checkFragment), is_pinned: p.bool(), name: p.str().check(checkViewName).optional() },
  async handler(ctx, params) {
    await checkAddNavigationView(ctx.deps, ctx.user, { fragment: params.fragment, isPinned: params.is_pinned, name: params.name });
  },
});

const fragmentInPath = { "*": p.str().path().check(checkFragment) };

export const editNavigationView = endpoint({
  method: "PATCH",
  path: "/navigation_views/*",
  auth: "user",
  params: { ...fragmentInPath, is_pinned: p.bool().optional(), name: p.str().check(checkViewName).optional() },
  async handler(ctx, params) {
    await checkUpdateNavigationView(ctx.deps, ctx.user, params["*"], { isPinned: params.is_pinned, name: params.name });
  },
});

export const removeNavigationView = endpoint({
  method: "DELETE",
  path: "/navigation_views/*",
  auth: "user",
  params: fragmentInPath,
  async handler(ctx, params) {
    await checkRemoveNavigationView(ctx.deps, ctx.user, params["*"]);
  },
});

export const navigationViewEndpoints = [getNavigationViews, addNavigationView, editNavigationView, removeNavigationView];
