/**
 * Linkifier rules (spec 4.17): a valid RE2 regular expression (Zulip's syntax, `(?P<name>…)`
 * groups), an RFC 6570 URL template whose variables are exactly the pattern's named groups, an example the pattern matches, and a reverse template that turns
 * the example's groups back into the example (`{{` and `}}` are literal braces).
 */
import { ApiError } from "../errors.js";
import { linkifierRegex } from "../markdown/linkifiers.js";

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: string[];
}

/**
 * Zulip's filter_pattern_validator: the pattern must compile with RE2 (no lookaround, no
 * backreferences, RE2's size limits), reported with RE2's own reason.
 */
export function compilePattern(pattern: string): RegExp {
  try {
    return linkifierRegex(pattern);
  } catch (e) {
    throw new ApiError(`Bad regular expression: ${(e as Error).message}`);
  }
}

export function namedGroups(pattern: string): Set<string> {
  return new Set([...pattern.matchAll(/\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]));
}

// RFC 6570 literals: no controls, space or any of " ' % < > \ ^ ` { | } (except %XX escapes).
// eslint-disable-next-line no-control-regex
const LITERAL = /^(?:[^\x00-\x20\x7f"'%<>\\^`{|}]|%[0-9A-Fa-f]{2})$/u;
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const OPERATORS = "+#./;?&";

/** The variable names of an RFC 6570 template, or null when it is not a valid template. */
export function templateVariables(template: string): string[] | null {
  const names: string[] = [];
  let i = 0;
  while (i < template.length) {
    if (template[i] === "{") {
      const end = template.indexOf("}", i);
      if (end < 0) return null;
      let body = template.slice(i + 1, end);
      if (OPERATORS.includes(body[0] ?? "")) body = body.slice(1);
      for (const spec of body.split(",")) {
        const m = /^([^:*]+)(?::([1-9]\d{0,3})|\*)?$/.exec(spec);
        if (!m || !VARNAME.test(m[1])) return null;
        names.push(m[1]);
      }
      i = end + 1;
      continue;
    }
    const pct = template.slice(i, i + 3);
    const char = pct.startsWith("%") ? pct : String.fromCodePoint(template.codePointAt(i) as number);
    if (!LITERAL.test(char)) return null;
    i += char.length;
  }
  return names;
}

/** Zulip's expand_reverse_template: the text the groups of `match` give in `template`. */
export function expandReverseTemplate(template: string, groups: Record<string, string | undefined>, groupSet: Set<string>): string {
  let out = "";
  let i = 0;
  while (i < template.length) {
    if (template.startsWith("{{", i) || template.startsWith("}}", i)) {
      out += template[i];
      i += 2;
    } else if (template[i] === "{") {
      const end = template.indexOf("}", i + 1);
      if (end < 0) throw new ApiError("Invalid auto-conversion field: missing '}' character.");
      const name = template.slice(i + 1, end);
      if (name === "") throw new ApiError("Invalid auto-conversion field: empty field name.");
      if (!groupSet.has(name)) throw new ApiError(`Group '${name}' in auto-conversion field is not present in linkifier pattern.`);
      out += groups[name] ?? "";
      i = end + 1;
    } else {
      out += template[i];
      i += 1;
    }
  }
  return out;
}

function checkTemplateVariables(template: string, groups: Set<string>, requireAll: boolean): void {
  const variables = templateVariables(template);
  if (variables === null) throw new ApiError("Invalid URL template.");
  const missingInPattern = [...new Set(variables)].filter((v) => !groups.has(v)).sort();
  if (missingInPattern.length > 0) throw new ApiError(`Group '${missingInPattern[0]}' in URL template is not present in linkifier pattern.`);
  const missingInTemplate = [...groups].filter((g) => !variables.includes(g)).sort();
  if (requireAll && missingInTemplate.length > 0) {
    throw new ApiError(`Group '${missingInTemplate[0]}' in linkifier pattern is not present in URL template.`);
  }
}

/** Checks a linkifier as Zulip's RealmFilter.clean does. */
export function checkLinkifier(input: LinkifierInput): void {
  // Zulip's RealmFilter.pattern is a required model field: full_clean() refuses a blank one.
  if (input.pattern.trim() === "") throw new ApiError("This field cannot be blank.");
  const regex = compilePattern(input.pattern);
  const groups = namedGroups(input.pattern);
  if (input.reverseTemplate !== null && input.exampleInput === null) {
    throw new ApiError("Example text is required when the auto-conversion field is set.");
  }
  if (input.exampleInput !== null) {
    const match = regex.exec(input.exampleInput);
    if (!match) throw new ApiError("Example input does not match the linkifier pattern.");
    if (input.reverseTemplate !== null && expandReverseTemplate(input.reverseTemplate, match.groups ?? {}, groups) !== input.exampleInput) {
      throw new ApiError("Example text does not match auto-conversion field.");
    }
  }
  checkTemplateVariables(input.urlTemplate, groups, true);
  for (const alternative of input.alternativeUrlTemplates) checkTemplateVariables(alternative, groups, false);
}

/** Zulip stores blank optional texts as null (normalize_optional_text). */
export function optionalText(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
