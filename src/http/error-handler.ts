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

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | ApiError, request, reply) => {
    // The database refusing or dropping connections is an outage, not a bug: a prompt 503.
    const error = isStoreUnavailable(thrown) ? serviceUnavailable("the database", (thrown as Error).message) : thrown;
    if (error instanceof ApiError) {
      noteErrorCode(request, error.code);
      reply.headers(error.headers);
      return reply.code(error.status).send(errorBody(error));
    }
    const status = (error as FastifyError).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const invalidJson = (error as FastifyError).code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError;
      const mapped = invalidJson
        ? new ApiError("Malformed JSON", "INVALID_JSON", 400)
        : new ApiError(error.message, "BAD_REQUEST", status);
      noteErrorCode(request, mapped.code);
      return reply.code(mapped.status).send(errorBody(mapped));
    }
    // request.log is already bound to the request id (reqId), so the log line carries it.
    request.log.error({ err: error }, "unhandled error");
    noteErrorCode(request, "INTERNAL_SERVER_ERROR");
    return reply.code(500).send({ result: "error", msg: "Internal server error", code: "BAD_REQUEST" });
  });

  app.setNotFoundHandler((request, reply) => {
    noteErrorCode(request, "BAD_REQUEST");
    return reply.code(404).send({ result: "error", msg: "Not Found", code: "BAD_REQUEST" });
  });
}
