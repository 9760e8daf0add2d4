/** Zulip's response envelope (spec conventions 2-4). */
import type { FastifyReply } from "fastify";
import type { ApiError } from "../errors.js";
import { hasJsonText, JsonMembers, stringifyWithJsonText } from "../lib/json-text.js";

const JSON_TYPE = "application/json; charset=utf-8";
/** The envelope's fixed start, and the whole answer of a call that returns no data (issue 21). */
const SUCCESS_START = '{"result":"success","msg":""';
const EMPTY_SUCCESS = `${SUCCESS_START}}`;

function isEmpty(data: Record<string, unknown>): boolean {
  for (const _ in data) return false;
  return true;
}

/** Fastify sends a string it is given as the body, unserialised. */
const sendJson = (reply: FastifyReply, text: string): FastifyReply => reply.code(200).type(JSON_TYPE).send(text);

/**
 * `{result:"success", msg:"", …data}`; `ignored_parameters_unsupported` lists the supplied
 * parameters the endpoint does not accept (spec conventions 3, feature level 167), when any were.
 * `data` may be the answer's members as JSON text already (JsonMembers), written in as they are.
 */
export function sendSuccess(reply: FastifyReply, data: Record<string, unknown> | JsonMembers, ignored: string[]): FastifyReply {
  const ignoredMember = ignored.length > 0 ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : "";
  if (data instanceof JsonMembers) return sendJson(reply, `${SUCCESS_START}${data.text === "" ? "" : `,${data.text}`}${ignoredMember}}`);
  if (ignoredMember === "" && isEmpty(data)) return sendJson(reply, EMPTY_SUCCESS);
  const body: Record<string, unknown> = { result: "success", msg: "", ...data };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  if (hasJsonText(body)) return sendJson(reply, stringifyWithJsonText(body));
  return reply.code(200).send(body);
}

export function errorBody(err: ApiError): Record<string, unknown> {
  return { result: "error", msg: err.message, code: err.code, ...err.data };
}
