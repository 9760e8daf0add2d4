/**
 * A response value that is already JSON text, written into the response as it is. POST /register
 * at 5,000 users answers 2.9 MB, most of it the realm's user objects, which stay the same from one
 * register to the next while nobody's row changes; serialising them again each time was a fifth of
 * the request (issue 8, S8). The HTTP envelope (http/respond.ts) splices the text in; anything else
 * that serialises a value holding one still gets the same JSON through toJSON, only slower.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** `JSON.stringify(body)` for a flat object whose values may be JsonText. */
export function stringifyWithJsonText(body: Record<string, unknown>): string {
  const members: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const json = value instanceof JsonText ? value.text : JSON.stringify(value);
    // JSON.stringify leaves out members whose value has no JSON form (undefined, functions).
    if (json !== undefined) members.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${members.join(",")}}`;
}

export const hasJsonText = (body: Record<string, unknown>): boolean => Object.values(body).some((v) => v instanceof JsonText);

/**
 * The members of an answer object as JSON text, without the braces ("" for none): what a handler
 * returns when it has the answer's JSON already (a memo, a compiled serialiser), for the envelope
 * to write around it without parsing or serialising it again (http/respond.ts).
 */
export class JsonMembers {
  constructor(readonly text: string) {}

  /** The members of `objectJson`, the JSON text of an object. */
  static of(objectJson: string): JsonMembers {
    return new JsonMembers(objectJson.slice(1, -1));
  }
}
