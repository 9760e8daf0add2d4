/**
 * The contract of error answers. The document describes few codes' fields: an error must match the
 * operation's documented answer for its status, or the documented shape of its code (the schemas
 * whose examples carry that code, and ./deviations.ts entries on error codes), or else be a plain
 * CodedError (result, msg, code and nothing more); its code must be one of Zulip's; and a code whose
 * documented example carries fields (var_name, queue_id, …) must carry them.
 */
import type { ValidateFunction } from "ajv";
import { describeTarget } from "./apply-deviations.js";
import { DEVIATIONS } from "./deviations.js";
import { DOCUMENT_ID, type ErrorExample, type Json } from "./document.js";
import { ERROR_CODES } from "./newer-schemas.js";
import { toViolations, type Violation } from "./violation.js";

/** One accepted shape of an error code, with the keys its example always carries. */
interface ErrorShape {
  /** Compiled on first use: most test processes answer few errors. */
  validator(): ValidateFunction;
  required: string[];
}

export interface Compiler {
  pointer(pointer: string): ValidateFunction;
  schema(key: string, schema: Json): ValidateFunction;
}

export class ErrorContract {
  private readonly shapes = new Map<string, ErrorShape[]>();
  /** Keys a code's documented example carries that Parley may leave out (PENDING entries). */
  private readonly optionalKeys = new Map<string, string[]>();

  constructor(
    examples: readonly ErrorExample[],
    private readonly compile: Compiler,
  ) {
    for (const example of examples) {
      this.shapes.set(example.code, [...(this.shapes.get(example.code) ?? []), { validator: () => compile.pointer(example.pointer), required: example.keys }]);
    }
    this.applyDeviations();
  }

  /** ./deviations.ts entries on error codes: the fields an error with that code carries, or may omit. */
  private applyDeviations(): void {
    for (const d of DEVIATIONS) {
      if (!("errorCode" in d.target)) continue;
      const code = d.target.errorCode;
      const documented = this.shapes.get(code) ?? [];
      if ("addProperties" in d.change) {
        const fields = d.change.addProperties;
        const required = d.fieldsOptional ? [] : Object.keys(fields);
        const closing = { additionalProperties: false, required, properties: { result: {}, msg: {}, code: {}, ...fields } };
        const schema = { allOf: [{ $ref: `${DOCUMENT_ID}#/components/schemas/CodedErrorBase` }, closing] };
        this.shapes.set(code, [{ validator: () => this.compile.schema(`error ${code}`, schema), required }, ...documented]);
      } else if ("optional" in d.change) {
        const names = d.change.optional;
        if (!documented.some((shape) => names.every((n) => shape.required.includes(n)))) {
          throw new Error(`deviations.ts: the ${d.kind} entry for ${describeTarget(d.target)} is stale: ${names.join(", ")} not documented`);
        }
        this.optionalKeys.set(code, names);
      } else {
        throw new Error(`deviations.ts: ${describeTarget(d.target)} takes addProperties or optional`);
      }
    }
  }

  /** Compiles every known shape (the summary test does); their number. */
  compileAll(): number {
    const shapes = [...this.shapes.values()].flat();
    for (const shape of shapes) shape.validator();
    return shapes.length;
  }

  /** Violations of an error answer; `documented`: the operation's schemas for this status. */
  check(where: string, body: Json, documented: readonly ValidateFunction[]): Violation[] {
    if (documented.some((validate) => validate(body))) return this.missingKeys(where, body);
    const code = String(body.code);
    if (!ERROR_CODES.has(code)) return [{ where, path: "/code", rule: `enum: ${JSON.stringify(body.code)} is not one of Zulip's error codes (zerver/lib/exceptions.py ErrorCode)` }];
    const shapes = this.shapes.get(code) ?? [];
    if (shapes.some((shape) => shape.validator()(body))) return this.missingKeys(where, body);
    if (shapes.length > 0) return toViolations(where, shapes[0].validator().errors);
    const coded = this.compile.pointer("/components/schemas/CodedError");
    return coded(body) ? [] : toViolations(where, coded.errors);
  }

  /** An error whose code the document shows with extra fields must carry them (e.g. var_name). */
  private missingKeys(where: string, body: Json): Violation[] {
    const shapes = this.shapes.get(String(body.code)) ?? [];
    const optional = this.optionalKeys.get(String(body.code)) ?? [];
    if (shapes.length === 0 || shapes.some((s) => s.required.every((k) => k in body || optional.includes(k)))) return [];
    const missing = shapes[0].required.filter((k) => !(k in body) && !optional.includes(k));
    return [{ where, path: "", rule: `required: an error with code ${String(body.code)} carries ${missing.join(", ")} (documented example)` }];
  }
}
