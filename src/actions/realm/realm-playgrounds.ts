/**
 * Code playgrounds (Zulip's add-code-playground / remove-code-playground, zerver/views/
 * realm_playgrounds.py): administrators name a URL template (RFC 6570, exactly one variable,
 * `code`) that clients offer for code blocks of a Pygments language. Every change sends the
 * whole list to everyone (realm_playgrounds event), as POST /register's `realm_playgrounds`.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { templateVariables } from "../../policy/linkifiers.js";
import { transaction, type Tx } from "../../store/db.js";
import { countPlaygrounds, deletePlayground, getPlaygroundByName, insertPlayground, listPlaygrounds, type PlaygroundRow } from "../../store/realm-integrations.js";
import type { RealmRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";

/** Zulip's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH. */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
/** Parley's bounds (Zulip's name and template are unbounded text): see docs/LIMITS.md. */
export const MAX_PLAYGROUND_NAME_LENGTH = 200;
export const MAX_PLAYGROUND_URL_TEMPLATE_LENGTH = 2000;
export const MAX_PLAYGROUNDS_PER_REALM = 200;

/** The characters Zulip's fenced-code blocks accept in a language name (PLAYGROUND_LANGUAGE_REGEX, plus capitals the view allows). */
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+\-./#]*$/;

export interface PlaygroundInput {
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

function presentPlayground(row: PlaygroundRow): Record<string, unknown> {
  return { id: row.id, name: row.name, pygments_language: row.pygments_language, url_template: row.url_template };
}

/** POST /register's `realm_playgrounds`. */
export async function playgroundsState(tx: Tx, realm: RealmRow): Promise<{ realm_playgrounds: Record<string, unknown>[] }> {
  return { realm_playgrounds: (await listPlaygrounds(tx, realm.id)).map(presentPlayground) };
}

async function publishPlaygrounds(deps: AppDeps, tx: Tx, realm: RealmRow): Promise<void> {
  const event = { type: "realm_playgrounds", ...(await playgroundsState(tx, realm)) };
  publishOnCommit(tx, deps.events, event, await listActiveUserIds(tx, realm.id));
}

/** The model's checks (RealmPlayground.full_clean), in Zulip's words, on stripped values. */
function checkPlayground(input: PlaygroundInput): PlaygroundInput {
  const name = input.name.trim();
  const pygmentsLanguage = input.pygmentsLanguage.trim();
  const urlTemplate = input.urlTemplate.trim();
  if (!PYGMENTS_LANGUAGE.test(pygmentsLanguage)) throw new ApiError("Invalid characters in pygments language");
  if (name === "" || pygmentsLanguage === "" || urlTemplate === "") throw new ApiError("This field cannot be blank.");
  const variables = templateVariables(urlTemplate);
  if (variables === null) throw new ApiError("Invalid URL template.");
  if (!variables.includes("code")) throw new ApiError('Missing the required variable "code" in the URL template');
  if (new Set(variables).size !== 1) throw new ApiError('"code" should be the only variable present in the URL template');
  return { name, pygmentsLanguage, urlTemplate };
}

/** POST /realm/playgrounds: returns the new playground's id. */
export async function addPlayground(deps: AppDeps, realm: RealmRow, input: PlaygroundInput): Promise<number> {
  const checked = checkPlayground(input);
  return transaction(deps.store, async (tx) => {
    if (await getPlaygroundByName(tx, realm.id, checked.pygmentsLanguage, checked.name)) {
      throw new ApiError("Realm playground with this Realm, Pygments language and Name already exists.");
    }
    if ((await countPlaygrounds(tx, realm.id)) >= MAX_PLAYGROUNDS_PER_REALM) {
      throw new ApiError(`An organization can have at most ${MAX_PLAYGROUNDS_PER_REALM} code playgrounds.`);
    }
    const id = await insertPlayground(tx, { realm_id: realm.id, name: checked.name, pygments_language: checked.pygmentsLanguage, url_template: checked.urlTemplate });
    await publishPlaygrounds(deps, tx, realm);
    return id;
  });
}

/** DELETE /realm/playgrounds/{playground_id}. */
export async function removePlayground(deps: AppDeps, realm: RealmRow, id: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    if (!(await deletePlayground(tx, realm.id, id))) throw new ApiError("Invalid playground");
    await publishPlaygrounds(deps, tx, realm);
  });
}
