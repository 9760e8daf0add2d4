/**
 * One error type and a catalog of Zulip error codes (zulip-facts section e). Anything below the HTTP
 * layer throws these; `src/http/error-handler.ts` turns them into Zulip's envelope
 * `{"result":"error","msg":…,"code":…, …data}` with the status carried here.
 */

export type ErrorCode =
  | "BAD_REQUEST"
  | "REQUEST_VARIABLE_MISSING"
  | "REQUEST_VARIABLE_INVALID"
  | "REQUEST_CONFUSING_VAR"
  | "INVALID_JSON"
  | "BAD_NARROW"
  | "BAD_IMAGE"
  | "REALM_UPLOAD_QUOTA"
  | "CANNOT_DEACTIVATE_LAST_USER"
  | "CHANNEL_ALREADY_EXISTS"
  | "STREAM_DOES_NOT_EXIST"
  | "UNAUTHORIZED_PRINCIPAL"
  | "BAD_EVENT_QUEUE_ID"
  | "INVITATION_FAILED"
  | "INVALID_API_KEY"
  | "INVALID_VIDEO_CALL_PROVIDER_TOKEN"
  | "UNAUTHENTICATED_USER"
  | "NONEXISTENT_SUBDOMAIN"
  | "RATE_LIMIT_HIT"
  | "USER_DEACTIVATED"
  | "REALM_DEACTIVATED"
  | "PASSWORD_AUTH_DISABLED"
  | "PASSWORD_RESET_REQUIRED"
  | "AUTHENTICATION_FAILED"
  | "UNAUTHORIZED"
  | "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED"
  | "REACTION_ALREADY_EXISTS"
  | "REACTION_DOES_NOT_EXIST"
  | "TOPIC_WILDCARD_MENTION_NOT_ALLOWED"
  | "STREAM_WILDCARD_MENTION_NOT_ALLOWED"
  | "EXPECTATION_MISMATCH"
  | "SYSTEM_GROUP_REQUIRED"
  | "CANNOT_DEACTIVATE_GROUP_IN_USE"
  | "NO_ACTIVE_PUSH_DEVICE"
  | "INVALID_PUSH_DEVICE_TOKEN"
  | "INVALID_REMOTE_PUSH_DEVICE_TOKEN"
  | "ADMIN_ACTION_REQUIRED"
  | "FAILED_TO_CONNECT_BOUNCER"
  | "INTERNAL_SERVER_ERROR_ON_BOUNCER"
  | "PUSH_SERVICE_NOT_CONFIGURED"
  | "CSRF_FAILED"
  | "PERMISSION_DENIED";

/** A Zulip JsonableError: stable `code`, HTTP status, human message, optional extra body fields. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode = "BAD_REQUEST",
    readonly status: number = 400,
    readonly data: Record<string, unknown> = {},
    /** Extra response headers (e.g. `WWW-Authenticate`, `Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

// ---- parameter errors (typed_endpoint templates) ----

/** Zulip's RequestVariableMissingError: the name travels as `var_name` (OpenAPI MissingArgumentError). */
export const missingParam = (name: string) =>
  new ApiError(`Missing '${name}' argument`, "REQUEST_VARIABLE_MISSING", 400, { var_name: name });

export const invalidParam = (message: string) => new ApiError(message, "REQUEST_VARIABLE_INVALID");

/** Zulip's RequestVariableConversionError ("Bad value for 'x': y"), with `var_name` and `bad_value`. */
export const badValue = (name: string, value: unknown) =>
  new ApiError(`Bad value for '${name}': ${String(value)}`, "REQUEST_VARIABLE_INVALID", 400, { var_name: name, bad_value: value });

export const malformedJson = (name: string) => new ApiError(`Argument "${name}" is not valid JSON.`, "INVALID_JSON");

/** Zulip's RequestConfusingParamsError, naming both parameters as `var_name1` / `var_name2`. */
export const confusingVar = (a: string, b: string) =>
  new ApiError(`Can't decide between '${a}' and '${b}' arguments`, "REQUEST_CONFUSING_VAR", 400, { var_name1: a, var_name2: b });

// ---- authentication (zulip-facts section h): always 401 with the Basic challenge ----

export const BASIC_CHALLENGE = { "WWW-Authenticate": 'Basic realm="zulip"' };

export const unauthorized = (message = "Not logged in: API authentication or user session required") =>
  new ApiError(message, "UNAUTHORIZED", 401, {}, BASIC_CHALLENGE);

export const authenticationFailed = () =>
  new ApiError("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);

export const userDeactivated = () => new ApiError("Account is deactivated", "USER_DEACTIVATED", 401);

export const realmDeactivated = () =>
  new ApiError("This organization has been deactivated", "REALM_DEACTIVATED", 401);

export const passwordAuthDisabled = () =>
  new ApiError("Password authentication is disabled in this organization", "PASSWORD_AUTH_DISABLED", 401);

export const nonexistentSubdomain = () =>
  new ApiError("There is no Zulip organization hosted at this subdomain.", "NONEXISTENT_SUBDOMAIN", 404);

// ---- permissions ----

/** Zulip's AccessDeniedError: 403 with the generic code. */
export const accessDenied = (message = "Access denied") => new ApiError(message, "BAD_REQUEST", 403);

export const mustBeAdmin = () => new ApiError("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL", 400);

export const mustBeOwner = () => new ApiError("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);

export const insufficientPermission = () => new ApiError("Insufficient permission");

// ---- lookups: one message for hidden and missing (architecture-anchors §7.5) ----

/** An unknown URL (or a path parameter of the wrong type), as Zulip's router answers it. */
export const notFound = () => new ApiError("Not Found", "BAD_REQUEST", 404);

export const invalidUser = () => new ApiError("No such user");

export const invalidMessage = () => new ApiError("Invalid message(s)");

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(
    "API usage exceeded rate limit",
    "RATE_LIMIT_HIT",
    429,
    { "retry-after": retryAfterSeconds },
    { "Retry-After": String(Math.ceil(retryAfterSeconds)) },
  );

// ---- outages (issue 18, item 4) ----

/** Seconds a client is asked to wait before retrying while a dependency is down. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * A dependency the request needs (the database, or Redis for events and rate limits) is not
 * answering: a prompt 503 the client can retry, never a hang or a half-done write. Zulip has no
 * code of its own for this, so the envelope carries its generic one.
 */
export const serviceUnavailable = (dependency: "the database" | "Redis", why: string) =>
  new ApiError(
    `Service temporarily unavailable: ${dependency} is not answering (${why}); try again shortly.`,
    "BAD_REQUEST",
    503,
    {},
    { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );
