/**
 * Events about the organization rather than messages (zulip-openapi.yaml /events): users,
 * channels and subscriptions, channel folders, user groups, realm and personal settings, and a few
 * lists kept whole in the register response (linkifiers, profile fields, emoji, statuses).
 */
import type { ClientState } from "./client-state";
import type { Channel, ChannelFolder, ServerEvent, Subscription, User, UserGroup } from "./types";

type Row = Record<string, unknown>;

function withEntry<K, V>(map: ReadonlyMap<K, V>, key: K, value: V | undefined): Map<K, V> {
  const copy = new Map(map);
  if (value === undefined) copy.delete(key);
  else copy.set(key, value);
  return copy;
}

function onRealmUser(state: ClientState, event: ServerEvent): ClientState {
  const person = event.person as Partial<User> & { user_id: number };
  const existing = state.users.get(person.user_id);
  if (event.op === "add") return { ...state, users: withEntry(state.users, person.user_id, person as User) };
  if (!existing) return state;
  const changes: Partial<User> = event.op === "remove" ? { is_active: false } : { ...person };
  // A custom profile field change arrives as {custom_profile_field: {id, value, rendered_value}}.
  const field = (person as Row).custom_profile_field as { id: number; value: string | null; rendered_value?: string } | undefined;
  if (field) {
    const profile = { ...(existing.profile_data ?? {}) };
    if (field.value === null) delete profile[field.id];
    else profile[field.id] = { value: field.value, rendered_value: field.rendered_value };
    changes.profile_data = profile;
    delete (changes as Row).custom_profile_field;
  }
  return { ...state, users: withEntry(state.users, person.user_id, { ...existing, ...changes }) };
}

function onSubscription(state: ClientState, event: ServerEvent): ClientState {
  if (event.op === "add") {
    const subscriptions = new Map(state.subscriptions);
    const channels = new Map(state.channels);
    for (const sub of event.subscriptions as Subscription[]) {
      subscriptions.set(sub.stream_id, sub);
      channels.set(sub.stream_id, { ...(channels.get(sub.stream_id) ?? {}), ...sub });
    }
    return { ...state, subscriptions, channels };
  }
  if (event.op === "remove") {
    const subscriptions = new Map(state.subscriptions);
    for (const sub of event.subscriptions as Array<{ stream_id: number }>) subscriptions.delete(sub.stream_id);
    return { ...state, subscriptions };
  }
  if (event.op === "update") {
    const id = event.stream_id as number;
    const sub = state.subscriptions.get(id);
    if (!sub) return state;
    const property = event.property === "in_home_view" ? "is_muted" : String(event.property);
    const value = event.property === "in_home_view" ? !event.value : event.value;
    return { ...state, subscriptions: withEntry(state.subscriptions, id, { ...sub, [property]: value }) };
  }
  return state;
}

function onStream(state: ClientState, event: ServerEvent): ClientState {
  if (event.op === "create") {
    const channels = new Map(state.channels);
    for (const c of event.streams as Channel[]) channels.set(c.stream_id, c);
    return { ...state, channels };
  }
  if (event.op === "delete") {
    const channels = new Map(state.channels);
    const subscriptions = new Map(state.subscriptions);
    for (const c of event.streams as Channel[]) {
      channels.delete(c.stream_id);
      subscriptions.delete(c.stream_id);
    }
    return { ...state, channels, subscriptions };
  }
  if (event.op === "update") {
    const id = event.stream_id as number;
    const changes: Row = { [String(event.property)]: event.value };
    if (event.rendered_description !== undefined) changes.rendered_description = event.rendered_description;
    if (event.history_public_to_subscribers !== undefined) changes.history_public_to_subscribers = event.history_public_to_subscribers;
    if (event.is_web_public !== undefined) changes.is_web_public = event.is_web_public;
    const channel = state.channels.get(id);
    const sub = state.subscriptions.get(id);
    return {
      ...state,
      channels: channel ? withEntry(state.channels, id, { ...channel, ...changes }) : state.channels,
      subscriptions: sub ? withEntry(state.subscriptions, id, { ...sub, ...changes }) : state.subscriptions,
    };
  }
  return state;
}

function onChannelFolder(state: ClientState, event: ServerEvent): ClientState {
  if (event.op === "add") return { ...state, channelFolders: [...state.channelFolders, event.channel_folder as ChannelFolder] };
  if (event.op === "update") {
    const id = event.channel_folder_id as number;
    const data = event.data as Partial<ChannelFolder>;
    return { ...state, channelFolders: state.channelFolders.map((f) => (f.id === id ? { ...f, ...data } : f)) };
  }
  if (event.op === "reorder") {
    const order = event.order as number[];
    const position = (f: ChannelFolder) => order.indexOf(f.id);
    return { ...state, channelFolders: [...state.channelFolders].sort((a, b) => position(a) - position(b)).map((f) => ({ ...f, order: position(f) })) };
  }
  return state;
}

function onUserGroup(state: ClientState, event: ServerEvent): ClientState {
  const id = event.group_id as number;
  const update = (change: (g: UserGroup) => UserGroup) => ({ ...state, userGroups: state.userGroups.map((g) => (g.id === id ? change(g) : g)) });
  switch (event.op) {
    case "add":
      return { ...state, userGroups: [...state.userGroups, event.group as UserGroup] };
    case "remove":
      return { ...state, userGroups: state.userGroups.filter((g) => g.id !== id) };
    case "update":
      return update((g) => ({ ...g, ...(event.data as Partial<UserGroup>) }));
    case "add_members":
      return update((g) => ({ ...g, members: [...new Set([...g.members, ...(event.user_ids as number[])])] }));
    case "remove_members":
      return update((g) => ({ ...g, members: g.members.filter((m) => !(event.user_ids as number[]).includes(m)) }));
    default:
      return state;
  }
}

function onRealm(state: ClientState, event: ServerEvent): ClientState {
  if (event.op === "update") return { ...state, realm: { ...state.realm, [`realm_${String(event.property)}`]: event.value } };
  if (event.op === "update_dict") {
    const data = Object.fromEntries(Object.entries(event.data as Row).map(([k, v]) => [`realm_${k}`, v]));
    return { ...state, realm: { ...state.realm, ...data } };
  }
  return state;
}

/** Event types whose payload replaces one register key wholesale. */
const REPLACED_LISTS: Record<string, [eventKey: string, registerKey: string]> = {
  realm_linkifiers: ["realm_linkifiers", "realm_linkifiers"],
  custom_profile_fields: ["fields", "custom_profile_fields"],
  alert_words: ["alert_words", "alert_words"],
  muted_users: ["muted_users", "muted_users"],
};

function onUserStatus(state: ClientState, event: ServerEvent): ClientState {
  const { id: _id, type: _type, user_id, ...status } = event;
  const all = (state.register.user_status ?? {}) as Record<string, Row>;
  const merged = { ...all, [String(user_id)]: { ...(all[String(user_id)] ?? {}), ...status } };
  return { ...state, register: { ...state.register, user_status: merged } };
}

/** A topic's visibility policy changed (zulip-openapi.yaml, user_topic event); 0 removes it. */
function onUserTopic(state: ClientState, event: ServerEvent): ClientState {
  const same = (t: Row) => t.stream_id === event.stream_id && String(t.topic_name).toLowerCase() === String(event.topic_name).toLowerCase();
  const others = ((state.register.user_topics ?? []) as Row[]).filter((t) => !same(t));
  const { id: _id, type: _type, ...entry } = event;
  return { ...state, register: { ...state.register, user_topics: event.visibility_policy === 0 ? others : [...others, entry] } };
}

export function applyOrgEvent(state: ClientState, event: ServerEvent): ClientState {
  switch (event.type) {
    case "realm_user":
      return onRealmUser(state, event);
    case "subscription":
      return onSubscription(state, event);
    case "stream":
      return onStream(state, event);
    case "channel_folder":
      return onChannelFolder(state, event);
    case "user_group":
      return onUserGroup(state, event);
    case "realm":
      return onRealm(state, event);
    case "user_settings":
      return event.op === "update" ? { ...state, userSettings: { ...state.userSettings, [String(event.property)]: event.value } } : state;
    case "realm_emoji":
      return { ...state, realmEmoji: event.realm_emoji as ClientState["realmEmoji"] };
    case "user_status":
      return onUserStatus(state, event);
    case "user_topic":
      return onUserTopic(state, event);
    case "realm_user_settings_defaults": {
      const defaults = { ...((state.register.realm_user_settings_defaults ?? {}) as Row), [String(event.property)]: event.value };
      return { ...state, register: { ...state.register, realm_user_settings_defaults: defaults } };
    }
    default: {
      const replaced = REPLACED_LISTS[event.type];
      if (!replaced) return state;
      return { ...state, register: { ...state.register, [replaced[1]]: event[replaced[0]] } };
    }
  }
}
