/**
 * Collects a request's raw parameters the way Zulip reads them: from the query string and the body
 * alike, for every method, body winning on a name clash; bodies may be urlencoded, multipart (the
 * zulip-js client posts multipart) or JSON. Values are strings, as a form would carry them.
 */
import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";

/**
 * In a query string or form, an array means the name was repeated: Django's QueryDict.get takes the
 * last value. In a JSON body an array is a value (e.g. `"to": [9, 10]`) and is re-encoded as JSON
 * text, as are numbers, booleans and objects, exactly as a form-encoding client would have sent them.
 */
function asFormValue(value: unknown, fromJson: boolean): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && !fromJson) return asFormValue(value[value.length - 1], false);
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value);
  } catch (error) {
    // JSON.stringify recurses: a JSON body nested some thousands of levels deep (which JSON.parse
    // accepts) overflows the stack. That is the client's malformed body, not a server error.
    if (error instanceof RangeError) throw new ApiError("Malformed JSON", "INVALID_JSON", 400);
    throw error;
  }
}

function addAll(target: Record<string, string>, source: unknown, fromJson: boolean): void {
  if (typeof source !== "object" || source === null || Array.isArray(source)) return;
  for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
    const v = asFormValue(value, fromJson);
    if (v !== undefined) target[key] = v;
  }
}

/** Reads multipart fields, discarding file parts unless the handler streams files itself. */
async function multipartFields(request: FastifyRequest): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === "field") {
      // Past MULTIPART_LIMITS the parser cuts a value short; a cut value must not pass as the real one.
      if (part.valueTruncated || part.fieldnameTruncated) throw new ApiError("Request body is too large", "BAD_REQUEST", 413);
      if (typeof part.value === "string") fields[part.fieldname] = part.value;
    } else {
      part.file.resume();
    }
  }
  return fields;
}

export async function collectRawParams(request: FastifyRequest, streamsFiles: boolean): Promise<Record<string, string>> {
  const raw: Record<string, string> = {};
  addAll(raw, request.query, false);
  if (request.isMultipart()) {
    if (!streamsFiles) Object.assign(raw, await multipartFields(request));
  } else {
    const json = /^application\/json\b/i.test(request.headers["content-type"] ?? "");
    addAll(raw, request.body, json);
  }
  return raw;
}
