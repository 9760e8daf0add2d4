/**
 * Validators for JSON-decoded parameter values. Each takes (value, name) and returns the typed
 * value or throws REQUEST_VARIABLE_INVALID with Zulip's wording ("to[0] is not an integer").
 */
import { invalidParam } from "../errors.js";

export type Validator<T> = (value: unknown, name: string) => T;

export const int: Validator<number> = (value, name) => {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw invalidParam(`${name} is not an integer`);
  return value;
};

export const str: Validator<string> = (value, name) => {
  if (typeof value !== "string") throw invalidParam(`${name} is not a string`);
  return value;
};

export const bool: Validator<boolean> = (value, name) => {
  if (typeof value !== "boolean") throw invalidParam(`${name} is not a boolean`);
  return value;
};

export function listOf<T>(item: Validator<T>, opts: { maxLength?: number } = {}): Validator<T[]> {
  return (value, name) => {
    if (!Array.isArray(value)) throw invalidParam(`${name} is not a list`);
    if (opts.maxLength !== undefined && value.length > opts.maxLength) {
      throw invalidParam(`${name} has more than ${opts.maxLength} items`);
    }
    return value.map((v, i) => item(v, `${name}[${i}]`));
  };
}

export function nullable<T>(inner: Validator<T>): Validator<T | null> {
  return (value, name) => (value === null ? null : inner(value, name));
}

/** Accepts any of the validators, in order; reports the last one's error. */
export function oneOf<T>(...validators: Validator<T>[]): Validator<T> {
  return (value, name) => {
    let lastError: unknown;
    for (const validate of validators) {
      try {
        return validate(value, name);
      } catch (e) {
        lastError = e;
      }
    }
    throw lastError;
  };
}

export function literal<const S extends string>(values: readonly S[]): Validator<S> {
  return (value, name) => {
    if (typeof value !== "string" || !(values as readonly string[]).includes(value)) throw invalidParam(`Invalid ${name}`);
    return value as S;
  };
}

type Shape = Record<string, { validator: Validator<unknown>; required: boolean }>;
type FromShape<S extends Shape> = { [K in keyof S]: S[K]["required"] extends true ? ReturnType<S[K]["validator"]> : ReturnType<S[K]["validator"]> | undefined };

export const field = <T>(validator: Validator<T>) => ({ validator, required: true as const });
export const optionalField = <T>(validator: Validator<T>) => ({ validator, required: false as const });

/** A JSON object with known keys; unknown keys are an error, as in Zulip's check_dict_only. */
export function object<S extends Shape>(shape: S): Validator<FromShape<S>> {
  return (value, name) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidParam(`${name} is not a dict`);
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(shape)) {
      if (input[key] === undefined) {
        if (spec.required) throw invalidParam(`${name} key is missing: ${key}`);
        continue;
      }
      out[key] = spec.validator(input[key], `${name}["${key}"]`);
    }
    for (const key of Object.keys(input)) {
      if (!(key in shape)) throw invalidParam(`Unexpected arguments: ${key}`);
    }
    return out as FromShape<S>;
  };
}

/**
 * A JSON object with any keys, each value checked by `item` (Zulip's dict[str, T]); the entries in
 * order, so that no key (not even `__proto__`) is looked up on an object.
 */
export function entriesOf<T>(item: Validator<T>): Validator<Array<[string, T]>> {
  return (value, name) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidParam(`${name} is not a dict`);
    return Object.entries(value).map(([key, v]) => [key, item(v, `${name}[${JSON.stringify(key)}]`)]);
  };
}

/**
 * Zulip's StringConstraints(strip_whitespace=True, min_length=1, max_length=…) as typed_endpoint
 * words its failures: the value stripped, refused when blank or longer than `maxLength`
 * characters (code points, as Python counts them).
 */
export function strippedText(name: string, value: string, maxLength?: number): string {
  const stripped = value.trim();
  if (stripped === "") throw invalidParam(`${name} cannot be blank`);
  if (maxLength !== undefined && [...stripped].length > maxLength) throw invalidParam(`${name} is too long (limit: ${maxLength} characters)`);
  return stripped;
}
