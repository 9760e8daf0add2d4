/**
 * Client-side application of organization and personal events (OpenAPI GET /events): realm,
 * realm_user, realm_bot, user_group, settings, statuses, topics, profile fields, linkifiers, emoji,
 * drafts, scheduled messages, reminders, alert words and presence, to the register sections they keep current.
 */
import {
  SUBSCRIPTION_LISTS,
  changeSubscribers,
  inaccessibleUserObject,
  inconsistent,
  type ClientTraits,
  type Event,
  type Handler,
  type State,
} from "./event-state.js";

const ROLE = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, GUEST: 600 };

function findById<T extends State>(list: T[], key: string, id: unknown, e: Event): T {
  const found = list.find((x) => x[key] === id);
  if (!found) inconsistent(e, `no ${key} ${String(id)} in the state`);
  return found;
}

function onRealm(state: State, e: Event): void {
  if (e.op === "update") {
    state[`realm_${e.property}`] = e.value;
  } else if (e.op === "update_dict") {
    for (const [key, value] of Object.entries(e.data as State)) {
      // max_file_upload_size_mib has no realm_ prefix in register (FL 306).
      state[key === "max_file_upload_size_mib" ? key : `realm_${key}`] = value;
      if (key === "authentication_methods") {
        state.realm_password_auth_enabled = value.Email.enabled;
        state.realm_email_auth_enabled = value.Email.enabled;
      }
    }
  } else if (e.op !== "deactivated") {
    inconsistent(e, "unknown realm op");
  }
}

/** A deactivated user leaves every subscriber list, group and group-setting value (FL 303). */
function forgetDeactivatedUser(state: State, userId: number): void {
  const streamIds = SUBSCRIPTION_LISTS.flatMap((key) => ((state[key] ?? []) as State[]).map((sub) => sub.stream_id as number));
  for (const streamId of streamIds) changeSubscribers(state, streamId, [userId], false);
  const dropFrom = (value: unknown) => {
    if (value && typeof value === "object") (value as State).direct_members = (value as State).direct_members.filter((id: number) => id !== userId);
  };
  for (const group of (state.realm_user_groups ?? []) as State[]) {
    group.members = group.members.filter((id: number) => id !== userId);
    for (const [key, value] of Object.entries(group)) if (key.startsWith("can_")) dropFrom(value);
  }
  for (const [key, value] of Object.entries(state)) if (key.startsWith("realm_can_") || key.startsWith("realm_direct_message_")) dropFrom(value);
}

function updatePerson(state: State, e: Event): void {
  const change = e.person as State;
  const me = change.user_id === state.user_id;
  const lists = [state.realm_users, state.realm_non_active_users] as State[][];
  const person = lists.flat().find((p) => p.user_id === change.user_id);
  if (!person) return;
  for (const [key, value] of Object.entries(change)) {
    if (key === "custom_profile_field") {
      const id = String(value.id);
      if (value.value === null) delete person.profile_data[id];
      else person.profile_data[id] = "rendered_value" in value ? { value: value.value, rendered_value: value.rendered_value } : { value: value.value };
    } else if (key === "new_email") {
      person.email = value;
    } else if (key !== "user_id") {
      person[key] = value;
    }
  }
  if ("role" in change) {
    Object.assign(person, { is_admin: change.role <= ROLE.ADMINISTRATOR, is_owner: change.role === ROLE.OWNER, is_guest: change.role === ROLE.GUEST });
  }
  if ("is_active" in change) {
    state.realm_users = state.realm_users.filter((p: State) => p !== person);
    state.realm_non_active_users = state.realm_non_active_users.filter((p: State) => p !== person);
    (change.is_active ? state.realm_users : state.realm_non_active_users).push(person);
    if (!change.is_active) forgetDeactivatedUser(state, change.user_id);
  }
  if (!me) return;
  for (const key of ["full_name", "email", "delivery_email", "avatar_source", "avatar_url", "avatar_url_medium"]) if (key in change) state[key] = change[key];
  if ("new_email" in change) state.email = change.new_email;
  if ("role" in change) {
    Object.assign(state, {
      is_admin: change.role <= ROLE.ADMINISTRATOR,
      is_owner: change.role === ROLE.OWNER,
      is_moderator: change.role <= ROLE.MODERATOR,
      is_guest: change.role === ROLE.GUEST,
    });
  }
}

/**
 * Zulip's apply_event for realm_user: add files the person (replacing the "Unknown user" that
 * stood for them, when a limited guest gains access, FL 228); remove, sent to a guest who loses
 * access, leaves the placeholder in their place, or nothing for a user_list_incomplete client.
 */
function onRealmUser(state: State, e: Event, client: ClientTraits): void {
  const id = e.person.user_id;
  const drop = () => {
    state.realm_users = state.realm_users.filter((p: State) => p.user_id !== id);
    state.realm_non_active_users = state.realm_non_active_users.filter((p: State) => p.user_id !== id);
  };
  if (e.op === "add") {
    const known = [...state.realm_users, ...state.realm_non_active_users].find((p: State) => p.user_id === id);
    if (known && known.full_name !== "Unknown user") inconsistent(e, "realm_user add for a known user");
    drop();
    state.realm_users.push({ ...structuredClone(e.person), is_active: true });
  } else if (e.op === "update") {
    updatePerson(state, e);
  } else if (e.op === "remove") {
    drop();
    if (!client.userListIncomplete) {
      if (client.placeholderDomain === undefined) inconsistent(e, "realm_user remove without a placeholder domain");
      state.realm_users.push(inaccessibleUserObject(id, client.placeholderDomain));
    }
  } else inconsistent(e, "unknown realm_user op");
}

function onRealmBot(state: State, e: Event): void {
  const bots = state.realm_bots as State[];
  if (e.op === "add") {
    if (bots.some((b) => b.user_id === e.bot.user_id)) inconsistent(e, "realm_bot add for a known bot");
    bots.push(structuredClone(e.bot));
  } else if (e.op === "update") Object.assign(findById(bots, "user_id", e.bot.user_id, e), e.bot);
  else if (e.op === "delete" || e.op === "remove") state.realm_bots = bots.filter((b) => b.user_id !== e.bot.user_id);
  else inconsistent(e, "unknown realm_bot op");
}

function onUserGroup(state: State, e: Event): void {
  const groups = state.realm_user_groups as State[];
  const group = () => findById(groups, "id", e.group_id, e);
  const merge = (list: number[], ids: number[], add: boolean) => (add ? [...new Set([...list, ...ids])] : list.filter((id) => !ids.includes(id)));
  switch (e.op) {
    case "add":
      groups.push(structuredClone(e.group));
      return;
    case "update":
      Object.assign(group(), structuredClone(e.data));
      return;
    case "add_members":
    case "remove_members":
      group().members = merge(group().members, e.user_ids, e.op === "add_members");
      return;
    case "add_subgroups":
    case "remove_subgroups":
      group().direct_subgroup_ids = merge(group().direct_subgroup_ids, e.direct_subgroup_ids, e.op === "add_subgroups");
      return;
    case "remove":
      state.realm_user_groups = groups.filter((g) => g.id !== e.group_id);
      return;
    default:
      inconsistent(e, "unknown user_group op");
  }
}

/** user_status: each field present in the event replaces (or, when empty, clears) the stored one. */
function onUserStatus(state: State, e: Event): void {
  const key = String(e.user_id);
  const status: State = { ...(state.user_status[key] ?? {}) };
  if (e.away === true) status.away = true;
  if (e.away === false) delete status.away;
  if (typeof e.status_text === "string") {
    if (e.status_text === "") delete status.status_text;
    else status.status_text = e.status_text;
  }
  if (typeof e.emoji_name === "string") {
    if (e.emoji_name === "") for (const f of ["emoji_name", "emoji_code", "reaction_type"]) delete status[f];
    else Object.assign(status, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });
  }
  if (Object.keys(status).length > 0) state.user_status[key] = status;
  else delete state.user_status[key];
}

function onUserTopic(state: State, e: Event): void {
  const topics = (state.user_topics as State[]).filter((t) => !(t.stream_id === e.stream_id && t.topic_name === e.topic_name));
  // visibility_policy 0 (inherit) removes the entry.
  if (e.visibility_policy !== 0) topics.push({ stream_id: e.stream_id, topic_name: e.topic_name, visibility_policy: e.visibility_policy, last_updated: e.last_updated });
  state.user_topics = topics;
}

function onDrafts(state: State, e: Event): void {
  const drafts = state.drafts as State[];
  if (e.op === "add") drafts.push(...structuredClone(e.drafts));
  else if (e.op === "update") Object.assign(findById(drafts, "id", e.draft.id, e), e.draft);
  else if (e.op === "remove") state.drafts = drafts.filter((d) => d.id !== e.draft_id);
  else inconsistent(e, "unknown drafts op");
}

/**
 * scheduled_messages and reminders events (FL 179, 399), applied as Zulip's apply_event does: the
 * list stays ordered by delivery time (then id, as the server lists them); a delivered or deleted
 * one leaves it.
 */
function scheduledList(stateKey: string, idKey: string, addKey: string, removeKey: string): Handler {
  return (state, e) => {
    let list = state[stateKey] as State[];
    if (e.op === "add") list = [...list, ...structuredClone(e[addKey] as State[])];
    else if (e.op === "update") list = list.map((m) => (m[idKey] === e.scheduled_message[idKey] ? structuredClone(e.scheduled_message) : m));
    else if (e.op === "remove") list = list.filter((m) => m[idKey] !== e[removeKey]);
    else inconsistent(e, `unknown ${stateKey} op`);
    state[stateKey] = list.sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a[idKey] - b[idKey]);
  };
}

/** navigation_view (FL 390): a view added, changed (only what `data` names) or removed, by fragment. */
const onNavigationView: Handler = (state, e) => {
  const views = state.navigation_views as State[];
  if (e.op === "add") views.push(structuredClone(e.navigation_view));
  else if (e.op === "update") Object.assign(views.find((v) => v.fragment === e.fragment) ?? inconsistent(e, "unknown fragment"), e.data);
  else if (e.op === "remove") state.navigation_views = views.filter((v) => v.fragment !== e.fragment);
  else inconsistent(e, "unknown navigation_view op");
};

/** Whole-list events: the event carries the new value of one register key. */
const replace = (stateKey: string, eventKey: string): Handler => (state, e) => {
  state[stateKey] = structuredClone(e[eventKey]);
};

/** realm_domains add / change / remove: one allowed domain at a time (Zulip keeps them in creation order). */
function onRealmDomains(state: State, e: Event): void {
  const list = state.realm_domains as State[];
  if (e.op === "add") list.push(structuredClone(e.realm_domain));
  else if (e.op === "change") findById(list, "domain", e.realm_domain.domain, e).allow_subdomains = e.realm_domain.allow_subdomains;
  else if (e.op === "remove") state.realm_domains = list.filter((d) => d.domain !== e.domain);
  else inconsistent(e, "unknown realm_domains op");
}

export const ORG_HANDLERS: Record<string, Handler> = {
  realm: onRealm,
  realm_user: onRealmUser,
  realm_bot: onRealmBot,
  user_group: onUserGroup,
  user_status: onUserStatus,
  user_topic: onUserTopic,
  drafts: onDrafts,
  scheduled_messages: scheduledList("scheduled_messages", "scheduled_message_id", "scheduled_messages", "scheduled_message_id"),
  reminders: scheduledList("reminders", "reminder_id", "reminders", "reminder_id"),
  custom_profile_fields: (state, e) => {
    state.custom_profile_fields = structuredClone(e.fields);
    // Values of a deleted field leave every user's profile_data.
    const ids = new Set((e.fields as State[]).map((f) => String(f.id)));
    for (const person of [...state.realm_users, ...state.realm_non_active_users] as State[]) {
      for (const id of Object.keys(person.profile_data ?? {})) if (!ids.has(id)) delete person.profile_data[id];
    }
  },
  realm_linkifiers: replace("realm_linkifiers", "realm_linkifiers"),
  realm_playgrounds: replace("realm_playgrounds", "realm_playgrounds"),
  realm_domains: onRealmDomains,
  realm_emoji: replace("realm_emoji", "realm_emoji"),
  alert_words: replace("alert_words", "alert_words"),
  muted_users: replace("muted_users", "muted_users"),
  navigation_view: onNavigationView,
  has_zoom_token: replace("has_zoom_token", "value"),
  has_webex_token: replace("has_webex_token", "value"),
  user_settings: (state, e) => {
    if (e.op !== "update") inconsistent(e, "unknown user_settings op");
    state.user_settings[e.property] = e.value;
  },
  // Legacy settings events (clients without user_settings_object): the top-level register key.
  update_display_settings: (state, e) => {
    if (!(e.setting_name in state)) inconsistent(e, "update_display_settings for a key the register did not return");
    state[e.setting_name] = e.setting;
  },
  update_global_notifications: (state, e) => {
    if (!(e.notification_name in state)) inconsistent(e, "update_global_notifications for a key the register did not return");
    state[e.notification_name] = e.setting;
  },
  realm_user_settings_defaults: (state, e) => {
    if (e.op !== "update") inconsistent(e, "unknown realm_user_settings_defaults op");
    state.realm_user_settings_defaults[e.property] = e.value;
  },
  presence: (state, e) => {
    if (!e.presences) inconsistent(e, "legacy presence event for a simplified_presence_events client");
    Object.assign(state.presences, structuredClone(e.presences));
  },
  // The legacy whole list (FL 134 replaced it with user_topic), kept where the register sent it:
  // Zulip sends muted_topics to a client that asked for every event type.
  muted_topics: (state, e) => {
    if ("muted_topics" in state) state.muted_topics = structuredClone(e.muted_topics);
  },
  restart: () => undefined,
};
