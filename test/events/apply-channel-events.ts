/**
 * Client-side application of channel events (OpenAPI GET /events: stream, subscription,
 * default_streams, channel_folder) to the register sections streams, subscriptions, unsubscribed,
 * never_subscribed, realm_default_streams and channel_folders.
 */
import { SUBSCRIPTION_LISTS, changeSubscribers, channelObjects, inconsistent, type Event, type Handler, type State } from "./event-state.js";

function removeChannels(state: State, ids: ReadonlySet<number>): void {
  for (const key of ["streams", ...SUBSCRIPTION_LISTS]) {
    if (state[key]) state[key] = (state[key] as State[]).filter((c) => !ids.has(c.stream_id));
  }
}

/** Moves a channel's object between subscription lists (subscribing, unsubscribing). */
function takeFromLists(state: State, streamId: number, lists: readonly string[]): State | undefined {
  for (const key of lists) {
    const found = (state[key] as State[]).find((c) => c.stream_id === streamId);
    if (found) {
      state[key] = (state[key] as State[]).filter((c) => c !== found);
      return found;
    }
  }
  return undefined;
}

function onStream(state: State, e: Event): void {
  if (e.op === "create") {
    for (const stream of e.streams as State[]) {
      if (channelObjects(state, stream.stream_id).length > 0) inconsistent(e, "stream create for a channel the client already has");
      state.streams.push(structuredClone(stream));
      // A channel one can see but is not subscribed to is "never subscribed" until a subscription add.
      state.never_subscribed.push({ ...structuredClone(stream), subscribers: [] });
    }
  } else if (e.op === "delete") {
    removeChannels(state, new Set<number>(e.stream_ids ?? (e.streams as State[]).map((s) => s.stream_id)));
  } else if (e.op === "update") {
    const targets = channelObjects(state, e.stream_id);
    if (targets.length === 0) inconsistent(e, "stream update for a channel the client does not have");
    for (const c of targets) {
      c[e.property] = e.value;
      // Companion fields the event carries with some properties.
      for (const extra of ["rendered_description", "history_public_to_subscribers", "is_web_public"]) {
        if (extra in e) c[extra] = e[extra];
      }
    }
  } else {
    inconsistent(e, "unknown stream op");
  }
}

function onSubscription(state: State, e: Event): void {
  const me = state.user_id as number;
  switch (e.op) {
    case "add":
      for (const sub of e.subscriptions as State[]) {
        takeFromLists(state, sub.stream_id, ["unsubscribed", "never_subscribed"]);
        if (state.subscriptions.some((s: State) => s.stream_id === sub.stream_id)) inconsistent(e, "subscription add for a channel already subscribed");
        state.subscriptions.push(structuredClone(sub));
        for (const c of state.streams as State[]) if (c.stream_id === sub.stream_id) c.subscriber_count = sub.subscriber_count;
      }
      return;
    case "remove":
      for (const { stream_id } of e.subscriptions as State[]) {
        const sub = takeFromLists(state, stream_id, ["subscriptions"]);
        if (!sub) inconsistent(e, "subscription remove for a channel not subscribed");
        state.unsubscribed.push(sub);
        // The client drops itself from the channel's subscribers (no peer_remove comes to it).
        changeSubscribers(state, stream_id, [me], false);
      }
      return;
    case "update": {
      const sub = (state.subscriptions as State[]).find((s) => s.stream_id === e.stream_id);
      if (!sub) inconsistent(e, "subscription update for a channel not subscribed");
      sub[e.property] = e.value;
      return;
    }
    case "peer_add":
    case "peer_remove":
      for (const streamId of e.stream_ids as number[]) {
        if (!changeSubscribers(state, streamId, e.user_ids, e.op === "peer_add")) inconsistent(e, "peer event for a channel the client does not have");
      }
      return;
    default:
      inconsistent(e, "unknown subscription op");
  }
}

function onChannelFolder(state: State, e: Event): void {
  const folders = state.channel_folders as State[];
  if (e.op === "add") folders.push(structuredClone(e.channel_folder));
  else if (e.op === "update") {
    const folder = folders.find((f) => f.id === e.channel_folder_id);
    if (!folder) inconsistent(e, "update of an unknown channel folder");
    Object.assign(folder, e.data);
  } else if (e.op === "reorder") {
    const order = e.order as number[];
    for (const f of folders) f.order = order.indexOf(f.id);
    folders.sort((a, b) => a.order - b.order);
  } else inconsistent(e, "unknown channel_folder op");
}

export const CHANNEL_HANDLERS: Record<string, Handler> = {
  stream: onStream,
  subscription: onSubscription,
  default_streams: (state, e) => {
    state.realm_default_streams = structuredClone(e.default_streams);
  },
  channel_folder: onChannelFolder,
};
