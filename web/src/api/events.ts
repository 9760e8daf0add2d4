/**
 * The live-update loop (issue 10; zulip-openapi.yaml /register and /events): register a queue,
 * long-poll GET /events with the last event id seen, reconnect with capped exponential backoff on
 * network or server errors, and register again (a fresh initial state) when the server answers
 * BAD_EVENT_QUEUE_ID because the queue was garbage-collected or the server restarted.
 */
import { ApiError, type ApiClient } from "./client";
import type { RegisterResponse, ServerEvent } from "../state/types";

/** What the client declares at register: it handles channel typing and the user_settings object. */
export const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  user_list_incomplete: false,
  include_deactivated_groups: true,
  archived_channels: true,
  simplified_presence_events: true,
};

export const REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  include_subscribers: false,
  client_capabilities: CLIENT_CAPABILITIES,
};

export type ConnectionStatus = "connecting" | "connected" | "reconnecting" | "unauthorized";

export interface EventLoopHandlers {
  /** A new queue and its initial state: the first one, and each one after BAD_EVENT_QUEUE_ID. */
  onRegister(response: RegisterResponse): void;
  onEvents(events: ServerEvent[]): void;
  onStatus(status: ConnectionStatus, error?: unknown): void;
}

const MIN_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

/** The next wait: doubles up to the cap, with ±25% jitter so clients of a restarted server spread out. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

export class EventLoop {
  private queueId: string | null = null;
  private lastEventId = -1;
  private stopped = false;
  private abort = new AbortController();

  constructor(
    private readonly api: ApiClient,
    private readonly handlers: EventLoopHandlers,
  ) {}

  get currentQueueId(): string | null {
    return this.queueId;
  }

  /** Registers and polls until stop(); resolves after the first register so callers can render. */
  async start(): Promise<void> {
    this.handlers.onStatus("connecting");
    await this.register();
    void this.poll();
  }

  /** Ends polling and deletes the queue on the server (best effort: logout does not wait on it). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    const queueId = this.queueId;
    this.queueId = null;
    if (queueId) await this.api.delete("/events", { queue_id: queueId }).catch(() => undefined);
  }

  private async register(): Promise<void> {
    const response = await this.api.post<RegisterResponse>("/register", REGISTER_PARAMS, { signal: this.abort.signal });
    this.queueId = response.queue_id;
    this.lastEventId = response.last_event_id;
    this.handlers.onRegister(response);
    this.handlers.onStatus("connected");
  }

  private async poll(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (this.queueId === null) await this.register();
        const { events } = await this.api.get<{ events: ServerEvent[] }>(
          "/events",
          { queue_id: this.queueId, last_event_id: this.lastEventId },
          { signal: this.abort.signal },
        );
        if (failures > 0) this.handlers.onStatus("connected");
        failures = 0;
        if (events.length === 0) continue;
        this.lastEventId = Math.max(this.lastEventId, ...events.map((e) => e.id));
        const real = events.filter((e) => e.type !== "heartbeat");
        if (real.length > 0) this.handlers.onEvents(real);
      } catch (error) {
        if (this.stopped) return;
        if (error instanceof ApiError && error.code === "BAD_EVENT_QUEUE_ID") {
          this.queueId = null; // the next turn registers again, with no delay
          continue;
        }
        if (error instanceof ApiError && (error.status === 401 || error.code === "UNAUTHORIZED" || error.code === "USER_DEACTIVATED")) {
          this.handlers.onStatus("unauthorized", error);
          return;
        }
        this.handlers.onStatus("reconnecting", error);
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures++)));
      }
    }
  }
}
