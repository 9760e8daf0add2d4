/** Types and lookups shared by the client-side event appliers (apply-*.ts). */

/* eslint-disable @typescript-eslint/no-explicit-any -- register state and events are untyped JSON here */
export type State = Record<string, any>;
export type Event = Record<string, any>;
/** What a handler needs to know of the client beyond its state (its capabilities). */
export interface ClientTraits {
  /** Declared user_list_incomplete (FL 232): inaccessible users are left out, not placeholders. */
  userListIncomplete?: boolean;
  /** Domain of "Unknown user" placeholder addresses (Zulip's get_fake_email_domain). */
  placeholderDomain?: string;
}

export type Handler = (state: State, event: Event, client: ClientTraits) => void;

/**
 * Zulip's get_data_for_inaccessible_user, written down as the documented data: the "Unknown user"
 * object that stands for a user a limited guest may not access.
 */
export function inaccessibleUserObject(userId: number, domain: string): State {
  return {
    email: `user${userId}@${domain}`,
    user_id: userId,
    avatar_version: 1,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    role: 400,
    is_bot: false,
    full_name: "Unknown user",
    timezone: "",
    is_active: true,
    date_joined: "1970-01-01T00:00:00+00:00",
    delivery_email: null,
    avatar_url: "/static/images/unknown-user-avatar.png",
    profile_data: {},
    is_imported_stub: false,
  };
}

/** The lists of POST /register that hold channel objects. */
export const SUBSCRIPTION_LISTS = ["subscriptions", "unsubscribed", "never_subscribed"] as const;

/** Channel objects held anywhere in the state (streams and the three subscription lists). */
export function channelObjects(state: State, streamId: number): State[] {
  return ["streams", ...SUBSCRIPTION_LISTS]
    .flatMap((key) => (state[key] ?? []) as State[])
    .filter((c) => c.stream_id === streamId);
}

/** Fails the harness: the event cannot be applied to this state (a server bug or a gap here). */
export function inconsistent(event: Event, why: string): never {
  throw new Error(`applyEvents: ${why}: ${JSON.stringify(event)}`);
}

/**
 * Adds or drops subscribers of a channel in every object the client holds for it, and moves
 * subscriber_count by the number that really changed (Zulip's Stream docs: clients keep the count
 * with peer_add/peer_remove). Returns false when the client holds no object for the channel.
 */
export function changeSubscribers(state: State, streamId: number, userIds: readonly number[], add: boolean): boolean {
  const objects = channelObjects(state, streamId);
  const listed = objects.find((c) => Array.isArray(c.subscribers));
  const changed = listed ? userIds.filter((id) => (listed.subscribers as number[]).includes(id) !== add).length : userIds.length;
  for (const c of objects) {
    if (Array.isArray(c.subscribers)) {
      c.subscribers = add ? [...new Set([...c.subscribers, ...userIds])] : (c.subscribers as number[]).filter((id) => !userIds.includes(id));
    }
    c.subscriber_count += add ? changed : -changed;
  }
  return objects.length > 0;
}
