/**
 * The realm's linkifiers (spec 4.17; Zulip's add/update/remove/reorder-linkifier): administrators
 * only; every change is announced to everyone as the full ordered list (realm_linkifiers event).
 * Messages rendered later pick the new list up through actions/messages/render.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { checkLinkifier, optionalText } from "../../policy/linkifiers.js";
import { transaction, type Tx } from "../../store/db.js";
import { deleteLinkifier, getLinkifier, getLinkifierByPattern, insertLinkifier, updateLinkifier, type LinkifierRow } from "../../store/linkifiers.js";
import { getLinkifiers } from "../../store/render-refs.js";
import type { RealmRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";

export interface LinkifierParams {
  pattern: string;
  urlTemplate: string;
  exampleInput?: string | null;
  reverseTemplate?: string | null;
  alternativeUrlTemplates?: string[];
}

export const linkifierNotFound = () => new ApiError("Linkifier not found.");

export function presentLinkifier(row: LinkifierRow): Record<string, unknown> {
  return {
    pattern: row.pattern,
    url_template: row.url_template,
    id: row.id,
    example_input: row.example_input,
    reverse_template: row.reverse_template,
    alternative_url_templates: JSON.parse(row.alternative_url_templates) as string[],
  };
}

export async function listLinkifiersForApi(tx: Tx, realmId: number): Promise<Record<string, unknown>[]> {
  return (await getLinkifiers(tx, realmId)).map(presentLinkifier);
}

/** Only clients that read URL templates (linkifier_url_template, FL 176) hear of linkifiers. */
async function publishLinkifiers(deps: AppDeps, tx: Tx, realmId: number): Promise<void> {
  const event = { type: "realm_linkifiers", realm_linkifiers: await listLinkifiersForApi(tx, realmId), only_with: "linkifier_url_template" };
  publishOnCommit(tx, deps.events, event, await listActiveUserIds(tx, realmId));
}

/** The checked, stored form of the parameters; the pattern must be new in the realm. */
async function checkParams(tx: Tx, realm: RealmRow, params: LinkifierParams, exceptId?: number) {
  const fields = {
    pattern: params.pattern,
    url_template: params.urlTemplate,
    example_input: optionalText(params.exampleInput),
    reverse_template: optionalText(params.reverseTemplate),
    alternative_url_templates: JSON.stringify(params.alternativeUrlTemplates ?? []),
  };
  checkLinkifier({
    pattern: fields.pattern,
    urlTemplate: fields.url_template,
    exampleInput: fields.example_input,
    reverseTemplate: fields.reverse_template,
    alternativeUrlTemplates: params.alternativeUrlTemplates ?? [],
  });
  const same = await getLinkifierByPattern(tx, realm.id, fields.pattern);
  if (same && same.id !== exceptId) throw new ApiError("Realm filter with this Realm and Pattern already exists.");
  return fields;
}

/** POST /realm/filters; returns the new linkifier's id. */
export async function addLinkifier(deps: AppDeps, realm: RealmRow, params: LinkifierParams): Promise<number> {
  return transaction(deps.store, async (tx) => {
    const id = await insertLinkifier(tx, realm.id, await checkParams(tx, realm, params));
    await publishLinkifiers(deps, tx, realm.id);
    return id;
  });
}

/** PATCH /realm/filters/{filter_id}. */
export async function changeLinkifier(deps: AppDeps, realm: RealmRow, id: number, params: LinkifierParams): Promise<void> {
  await transaction(deps.store, async (tx) => {
    if (!(await getLinkifier(tx, realm.id, id))) throw linkifierNotFound();
    await updateLinkifier(tx, id, await checkParams(tx, realm, params, id));
    await publishLinkifiers(deps, tx, realm.id);
  });
}

/** DELETE /realm/filters/{filter_id}. */
export async function removeLinkifier(deps: AppDeps, realm: RealmRow, id: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    if (!(await getLinkifier(tx, realm.id, id))) throw linkifierNotFound();
    await deleteLinkifier(tx, id);
    await publishLinkifiers(deps, tx, realm.id);
  });
}

/** PATCH /realm/linkifiers: the new order must list every linkifier exactly once. */
export async function reorderLinkifiers(deps: AppDeps, realm: RealmRow, orderedIds: readonly number[]): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const ids = (await getLinkifiers(tx, realm.id)).map((l) => l.id);
    const permutation = orderedIds.length === ids.length && new Set(orderedIds).size === ids.length && orderedIds.every((id) => ids.includes(id));
    if (!permutation) throw new ApiError("The ordered list must enumerate all existing linkifiers exactly once");
    for (const [order, id] of orderedIds.entries()) await updateLinkifier(tx, id, { order });
    await publishLinkifiers(deps, tx, realm.id);
  });
}
