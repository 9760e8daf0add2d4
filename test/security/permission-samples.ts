/**
 * Valid requests for every endpoint of the permission matrix: for each "METHOD /path" of ENDPOINTS,
 * how to build a request that passes parameter parsing and reaches the permission check, pointing at
 * objects made for it. Objects a call changes or destroys are made fresh for each cell; objects that
 * are only read come from `Shared`, made once per suite.
 */
import type { TestUser, UserName } from "../helpers/fixtures.js";
import type { Part } from "../helpers/uploads.js";
import type { Objects } from "./objects.js";
import { ACCOUNT_SAMPLES } from "./samples-accounts.js";
import { CONVERSATION_SAMPLES } from "./samples-conversations.js";
import { INTEGRATION_SAMPLES } from "./samples-integrations.js";
import { USER_TOOL_SAMPLES } from "./samples-user-tools.js";

/** Objects that cells only read: a public channel every fixture user is subscribed to, and so on. */
export interface Shared {
  channel: { id: number; name: string };
  /** othello's message in `channel` (topic "matrix"), linking `upload`. */
  messageId: number;
  /** othello's file, shared by the link in `messageId`. */
  upload: { pathId: string; attachmentId: number };
  /** A user group with othello as its member. */
  groupId: number;
  /** A short-text profile field users may edit. */
  fieldId: number;
}

export interface SampleContext {
  o: Objects;
  shared: Shared;
  /** Who makes the call: the role's fixture user, a fresh account (`freshCaller`), or hamlet for unauthenticated cells. */
  caller: TestUser;
}

export interface Sample {
  /** Values for the `:name` (and `*`) segments of the endpoint's path. */
  path?: Record<string, string | number>;
  params?: Record<string, unknown>;
  files?: Part[];
}

export interface EndpointSample {
  /** The call changes or ends the caller's own account: each cell gets a fresh account of its role. */
  freshCaller?: boolean;
  build(ctx: SampleContext): Sample | Promise<Sample>;
}

export const SAMPLES: Readonly<Record<string, EndpointSample>> = { ...ACCOUNT_SAMPLES, ...CONVERSATION_SAMPLES, ...USER_TOOL_SAMPLES, ...INTEGRATION_SAMPLES };

/** Every user of the fixture cast (test/helpers/fixtures.ts). */
export const CAST_NAMES: readonly UserName[] = ["desdemona", "iago", "shiva", "hamlet", "othello", "cordelia", "polonius", "bot"];

export async function createShared(o: Objects): Promise<Shared> {
  const channel = await o.channel([...CAST_NAMES]);
  const upload = await o.upload("othello");
  const messageId = await o.message("othello", channel.name, "matrix", `see [the file](${upload.url})`);
  await o.ok("othello", { method: "POST", path: "/users/me/presence", params: { status: "active" } });
  return { channel, messageId, upload, groupId: await o.group(["othello"]), fieldId: await o.profileField() };
}

/** The endpoint's path with the sample's values in place of `:name` and `*`. */
export function fillPath(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/:([a-z_]+)|\*/g, (segment, name: string | undefined) => {
    const value = values[name ?? "*"];
    if (value === undefined) throw new Error(`no sample value for ${segment} in ${template}`);
    return name === undefined ? String(value) : encodeURIComponent(String(value));
  });
}
