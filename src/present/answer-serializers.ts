/**
 * Compiled serialisers (fast-json-stringify, which Fastify itself is built on) for the answers
 * served most often (issue 21 item 2). A serialiser compiled from a schema writes the known members
 * without inspecting each value's type, faster than JSON.stringify; but it writes what the schema
 * says, so every schema here keeps `additionalProperties: true` at every level (a member the schema
 * does not list is still written, through JSON.stringify) and declares null wherever a value may be
 * null (a non-nullable integer would turn null into 0). test/lib/answer-serializers.test.ts checks
 * the output parses to the same value as JSON.stringify's for representative answers.
 */
import build, { type Schema } from "fast-json-stringify";

const nullable = (type: "string" | "integer"): Schema => ({ type: [type, "null"] }) as unknown as Schema;
const open = (properties: Record<string, Schema>): Schema => ({ type: "object", additionalProperties: true, properties });

/** A user object as presentUser builds it (present/present-user.ts). */
const USER_PROPERTIES: Record<string, Schema> = {
  user_id: { type: "integer" },
  delivery_email: nullable("string"),
  email: { type: "string" },
  full_name: { type: "string" },
  date_joined: { type: "string" },
  is_active: { type: "boolean" },
  is_owner: { type: "boolean" },
  is_admin: { type: "boolean" },
  is_guest: { type: "boolean" },
  is_bot: { type: "boolean" },
  bot_type: nullable("integer"),
  bot_owner_id: nullable("integer"),
  role: { type: "integer" },
  timezone: { type: "string" },
  avatar_url: nullable("string"),
  avatar_version: { type: "integer" },
  is_imported_stub: { type: "boolean" },
  is_deleted: { type: "boolean" },
};

/** GET /users/me's answer members: the caller's user object, max_message_id and profile_data. */
export const serializeOwnUser: (answer: Record<string, unknown>) => string = build(
  open({
    ...USER_PROPERTIES,
    max_message_id: { type: "integer" },
    profile_data: open({}),
  }),
);
