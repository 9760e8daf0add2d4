/** A broken rule of the contract, as tests report it. */
import type { ErrorObject } from "ajv";

export interface Violation {
  /** `POST /register → 200` or `event realm_user/add`. */
  where: string;
  /** JSON path in the body or event (`/realm_users/3/avatar_url`). */
  path: string;
  /** The rule broken: keyword, its parameters and the schema location. */
  rule: string;
  /** The offending value, abridged (collecting mode only, where Ajv runs verbose). */
  value?: string;
}

export const describeViolation = (v: Violation) => `${v.where}: ${v.path || "(root)"} ${v.rule}`;

/** Collecting mode (PARLEY_CONTRACT_COLLECT) surveys a whole run: every error, with the offending value. */
export const COLLECTING = process.env.PARLEY_CONTRACT_COLLECT !== undefined;

export function toViolations(where: string, errors: ErrorObject[] | null | undefined): Violation[] {
  return (errors ?? []).slice(0, COLLECTING ? 200 : 12).map((e) => ({
    where,
    path: e.instancePath,
    rule: `${e.keyword}: ${e.message} ${JSON.stringify(e.params)} [schema ${e.schemaPath}]`,
    ...(COLLECTING && { value: JSON.stringify(e.data)?.slice(0, 300) }),
  }));
}
