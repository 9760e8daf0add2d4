/**
 * Custom profile fields (spec 4.16, Zulip's CustomProfileField): the eight field types, the rules
 * for a field's name, hint and field_data, and the per-type check of a user's value. Pure; the
 * Users type's ids are checked against the store by the caller.
 */
import { ApiError } from "../errors.js";

export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;
export const FIELD_TYPES: readonly number[] = Object.values(FIELD_TYPE);

export const MAX_FIELD_NAME_LENGTH = 40;
export const MAX_FIELD_HINT_LENGTH = 80;
export const MAX_SUMMARY_FIELDS = 2;
const MAX_SHORT_VALUE = 50;
const MAX_LONG_VALUE = 500;

/**
 * External-account subtypes with a fixed label (Zulip's DEFAULT_EXTERNAL_ACCOUNTS; register's
 * realm_default_external_accounts): the field's name, the site's name (text), hint and URL pattern.
 */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; text: string; hint: string; urlPattern: string }> = {
  github: { name: "GitHub username", text: "GitHub", hint: "", urlPattern: "https://github.com/%(username)s" },
  twitter: { name: "Twitter username", text: "Twitter", hint: "", urlPattern: "https://twitter.com/%(username)s" },
};

export type FieldData = Record<string, unknown>;

/** Short and long text values are Markdown, shown with a rendered_value. */
export function isRenderable(fieldType: number): boolean {
  return fieldType === FIELD_TYPE.SHORT_TEXT || fieldType === FIELD_TYPE.LONG_TEXT;
}

/** Users fields are not supported in a profile summary; paragraphs are since feature level 476. */
export function canShowInSummary(fieldType: number): boolean {
  return fieldType !== FIELD_TYPE.USER;
}

/** An external-account field whose label comes from DEFAULT_EXTERNAL_ACCOUNTS. */
export function isDefaultExternalField(fieldType: number, data: FieldData): boolean {
  return fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT && data.subtype !== "custom";
}

const length = (s: string) => [...s].length;

export function checkFieldNameAndHint(name: string, hint: string): void {
  if (name.trim() === "") throw new ApiError("Label cannot be blank.");
  if (length(hint) > MAX_FIELD_HINT_LENGTH) throw new ApiError(`hint is too long (limit: ${MAX_FIELD_HINT_LENGTH} characters)`);
  if (length(name) > MAX_FIELD_NAME_LENGTH) throw new ApiError(`name is too long (limit: ${MAX_FIELD_NAME_LENGTH} characters)`);
}

export function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return ["http:", "https:", "ftp:", "ftps:"].includes(url.protocol) && url.hostname !== "" && !/\s/.test(value);
  } catch {
    return false;
  }
}

function requiredString(value: unknown, name: string): string {
  if (typeof value !== "string") throw new ApiError(`${name} is not a string`);
  if (value.trim() === "") throw new ApiError(`${name} cannot be blank.`);
  return value;
}

/** List-of-options data: {key: {text, order}} with at least one option (strings both). */
function checkSelectData(data: FieldData): void {
  if (Object.keys(data).length < 1) throw new ApiError("Field must have at least one choice.");
  for (const [key, option] of Object.entries(data)) {
    if (key.trim() === "") throw new ApiError("'value' cannot be blank.");
    const name = `field_data["${key}"]`;
    if (typeof option !== "object" || option === null || Array.isArray(option)) throw new ApiError(`${name} is not a dict`);
    const o = option as Record<string, unknown>;
    for (const k of ["text", "order"]) {
      if (o[k] === undefined) throw new ApiError(`${name} key is missing: ${k}`);
      requiredString(o[k], `${name}["${k}"]`);
    }
    const extra = Object.keys(o).find((k) => k !== "text" && k !== "order");
    if (extra !== undefined) throw new ApiError(`Unexpected arguments: ${extra}`);
  }
}

/** External-account data: a known subtype, or "custom" with a url_pattern holding %(username)s once. */
function checkExternalAccountData(data: FieldData): void {
  if (data.subtype === undefined) throw new ApiError("field_data key is missing: subtype");
  const subtype = requiredString(data.subtype, 'field_data["subtype"]');
  const extra = Object.keys(data).find((k) => k !== "subtype" && k !== "url_pattern");
  if (extra !== undefined) throw new ApiError(`Unexpected arguments: ${extra}`);
  if (data.url_pattern !== undefined) {
    const pattern = requiredString(data.url_pattern, 'field_data["url_pattern"]');
    if (pattern.split("%(username)s").length !== 2) throw new ApiError("Malformed URL pattern.");
    if (!isUrl(pattern.replace("%(username)s", "username"))) throw new ApiError('field_data["url_pattern"] is not a URL');
  }
  if (subtype in DEFAULT_EXTERNAL_ACCOUNTS) return;
  if (subtype !== "custom") throw new ApiError("Invalid external account type");
  if (data.url_pattern === undefined) throw new ApiError("Custom external account must define URL pattern");
}

/** Checks a field definition's field_data for its type; other types carry none. */
export function checkFieldData(fieldType: number, data: FieldData): void {
  if (fieldType === FIELD_TYPE.SELECT) checkSelectData(data);
  else if (fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT) checkExternalAccountData(data);
}

/** The stored field_data text: JSON for the types that use it, "" for the rest (as Zulip stores it). */
export function storedFieldData(fieldType: number, data: FieldData): string {
  return fieldType === FIELD_TYPE.SELECT || fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT ? JSON.stringify(data) : "";
}

export function parseFieldData(stored: string): FieldData {
  return stored === "" ? {} : (JSON.parse(stored) as FieldData);
}

function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function capped(value: unknown, name: string, max: number): string {
  if (typeof value !== "string") throw new ApiError(`${name} is not a string`);
  if (length(value) > max) throw new ApiError(`${name} is too long (limit: ${max} characters)`);
  return value;
}

/** The ids of a Users-type value, before the caller checks them against the realm. */
export function userIdsOfValue(value: unknown): number[] {
  if (!Array.isArray(value)) throw new ApiError("User IDs is not a list");
  value.forEach((v, i) => {
    if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new ApiError(`User IDs[${i}] is not an integer`);
  });
  return value as number[];
}

/**
 * Checks a value against its field (Zulip's per-type validators, messages naming the field) and
 * returns it as stored: text as given, Users ids as JSON text.
 */
export function checkFieldValue(field: { name: string; field_type: number; field_data: string }, value: unknown): string {
  switch (field.field_type) {
    case FIELD_TYPE.LONG_TEXT:
      return capped(value, field.name, MAX_LONG_VALUE);
    case FIELD_TYPE.DATE:
      if (typeof value !== "string" || !isDate(value)) throw new ApiError(`${field.name} is not a date`);
      return value;
    case FIELD_TYPE.URL:
      if (typeof value !== "string" || !isUrl(value)) throw new ApiError(`${field.name} is not a URL`);
      return value;
    case FIELD_TYPE.SELECT: {
      const choice = capped(value, field.name, Number.MAX_SAFE_INTEGER);
      if (!(choice in parseFieldData(field.field_data))) throw new ApiError(`'${choice}' is not a valid choice for '${field.name}'.`);
      return choice;
    }
    case FIELD_TYPE.USER:
      return JSON.stringify(userIdsOfValue(value));
    default:
      return capped(value, field.name, MAX_SHORT_VALUE);
  }
}
