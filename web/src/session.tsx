/**
 * One signed-in session: the API client, the client state kept current by the event loop, and a
 * way for views to hear raw events (the open message list applies edits and reactions itself).
 * Views reach it through SessionContext: `useSession()` and `useClientState(select)`.
 */
import { createContext } from "preact";
import { useContext, useEffect } from "preact/hooks";
import { ApiClient, type Credentials } from "./api/client";
import { EventLoop, type ConnectionStatus } from "./api/events";
import { logOut } from "./api/auth";
import { startDesktopNotifier } from "./api/desktop-notifier";
import { startPresenceReporter } from "./api/presence-reporter";
import { applyEvent, expireTyping } from "./state/apply-event";
import { stateFromRegister, type ClientState } from "./state/client-state";
import { createStore, useStore, type Store } from "./state/store";
import type { ServerEvent } from "./state/types";

/**
 * Hears each batch of events once they are applied. `statesAfter[i]` is the state just after
 * `events[i]`: a listener that judges an event by the state (the desktop notifier) must not see
 * what later events of the same poll changed, or a batch's order would decide its answer.
 */
type EventListener = (events: ServerEvent[], statesAfter: readonly ClientState[]) => void;

export class Session {
  readonly api: ApiClient;
  /** Null until the first register answers. */
  readonly state: Store<ClientState | null> = createStore<ClientState | null>(null);
  readonly status: Store<ConnectionStatus> = createStore<ConnectionStatus>("connecting");
  private readonly listeners = new Set<EventListener>();
  private readonly loop: EventLoop;
  private typingTimer: ReturnType<typeof setInterval> | undefined;
  private stopPresence: (() => void) | undefined;
  private stopNotifier: (() => void) | undefined;

  constructor(
    credentials: Credentials,
    private readonly onSignedOut: () => void,
  ) {
    this.api = new ApiClient(credentials);
    this.loop = new EventLoop(this.api, {
      onRegister: (response) => this.state.set(stateFromRegister(response)),
      onEvents: (events) => {
        const statesAfter: ClientState[] = [];
        this.state.set((state) => {
          if (!state) return state;
          for (const event of events) statesAfter.push((state = applyEvent(state, event)));
          return state;
        });
        for (const listener of [...this.listeners]) listener(events, statesAfter);
      },
      onStatus: (status) => {
        this.status.set(status);
        if (status === "unauthorized") void this.logout();
      },
    });
  }

  async start(): Promise<void> {
    // Typing indicators expire on their own (spec 4.1 rule 4), so a timer sweeps them.
    this.typingTimer = setInterval(() => this.state.set((s) => (s ? expireTyping(s, Date.now()) : s)), 1000);
    await this.loop.start();
    this.stopNotifier = startDesktopNotifier({ onEvents: (listener) => this.onEvents(listener) });
    this.stopPresence = startPresenceReporter({
      api: this.api,
      presence: () => this.state.get()?.presence ?? null,
      setPresence: (change) => this.update((s) => ({ ...s, presence: change(s.presence) })),
    });
  }

  /** The live state; only for code that runs after the first register (every view does). */
  get current(): ClientState {
    const state = this.state.get();
    if (!state) throw new Error("The session has not registered yet");
    return state;
  }

  onEvents(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies a state change made locally (e.g. a topic list just fetched). */
  update(change: (state: ClientState) => ClientState): void {
    this.state.set((state) => (state ? change(state) : state));
  }

  async logout(): Promise<void> {
    clearInterval(this.typingTimer);
    this.stopPresence?.();
    this.stopNotifier?.();
    await this.loop.stop();
    await logOut();
    this.onSignedOut();
  }
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside a signed-in view");
  return session;
}

/** A slice of the client state; components under the signed-in shell always have a state. */
export function useClientState<S>(select: (state: ClientState) => S): S {
  const session = useSession();
  return useStore(session.state, (state) => select(state as ClientState));
}

/** Calls `listener` with each batch of events while the component is mounted. */
export function useServerEvents(listener: EventListener, deps: unknown[]): void {
  const session = useSession();
  useEffect(() => session.onEvents(listener), [session, ...deps]);
}
