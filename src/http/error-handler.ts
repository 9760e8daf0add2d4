/**
 * Maps every thrown error to a response, once (architecture-anchors §7.4): ApiError → its status and
 * Zulip envelope; Fastify's own client errors (body too large, bad content) → a 4xx Zulip envelope;
 * anything else → logged with the request id, answered 500 "Internal server error".
 */
import type { FastifyError, FastifyInstance } from "fastify";
import { ApiError, serviceUnavailable } from "../errors.js";
import { isStoreUnavailable } from "../store/db.js";
import { noteErrorCode } from "./request-log.js";
import { errorBody } from "./respond.js";

/** How a thrown error is answered: status, extra headers and the Zulip envelope. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown> & { code: string };
  /** A bug, not a refusal: logged with the request id and answered 500. */
  unexpected: boolean;
}

export function errorAnswer(thrown: unknown): ErrorAnswer {
  // The database refusing or dropping connections is an outage, not a bug: a prompt 503.
  const error = isStoreUnavailable(thrown) ? serviceUnavailable("the database", (thrown as Error).message) : thrown;
  if (error instanceof ApiError) return { status: error.status, headers: error.headers, body: errorBody(error) as ErrorAnswer["body"], unexpected: false };
  const status = (error as FastifyError).statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const invalidJson = (error as FastifyError).code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError;
    const mapped = invalidJson ? new ApiError("Malformed JSON", "INVALID_JSON", 400) : new ApiError((error as Error).message, "BAD_REQUEST", status);
    return { status: mapped.status, headers: {}, body: errorBody(mapped) as ErrorAnswer["body"], unexpected: false };
  }
  return { status: 500, headers: {}, body: { result: "error", msg: "Internal server error", code: "BAD_REQUEST" }, unexpected: true };
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | ApiError, request, reply) => {
    const answer = errorAnswer(thrown);
    // request.log is already bound to the request id (reqId), so the log line carries it.
    if (answer.unexpected) request.log.error({ err: thrown }, "unhandled error");
    noteErrorCode(request, answer.unexpected ? "INTERNAL_SERVER_ERROR" : answer.body.code);
    reply.headers(answer.headers);
    return reply.code(answer.status).send(answer.body);
  });

  app.setNotFoundHandler((request, reply) => {
    noteErrorCode(request, "BAD_REQUEST");
    return reply.code(404).send({ result: "error", msg: "Not Found", code: "BAD_REQUEST" });
  });
}
