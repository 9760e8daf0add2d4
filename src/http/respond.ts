/** Zulip's response envelope (spec conventions 2-4). */
import type { FastifyReply } from "fastify";
import type { ApiError } from "../errors.js";
import { hasJsonText, stringifyWithJsonText } from "../lib/json-text.js";

/**
 * `{result:"success", msg:"", …data}`; `ignored_parameters_unsupported` lists the supplied
 * parameters the endpoint does not accept (spec conventions 3, feature level 167), when any were.
 */
export function sendSuccess(reply: FastifyReply, data: Record<string, unknown>, ignored: string[]): FastifyReply {
  const body: Record<string, unknown> = { result: "success", msg: "", ...data };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  // Fastify sends a string it is given as the body, unserialised.
  if (hasJsonText(body)) return reply.code(200).type("application/json; charset=utf-8").send(stringifyWithJsonText(body));
  return reply.code(200).send(body);
}

export function errorBody(err: ApiError): Record<string, unknown> {
  return { result: "error", msg: err.message, code: err.code, ...err.data };
}
