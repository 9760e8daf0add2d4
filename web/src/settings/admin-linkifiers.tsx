/**
 * Organization › Linkifiers (spec 4.17): add (POST /realm/filters), edit (PATCH
 * /realm/filters/{id}), delete, and reorder (PATCH /realm/linkifiers). The list is the register's
 * realm_linkifiers, replaced whole by each realm_linkifiers event. The server checks patterns and
 * templates; its message is shown as it is.
 */
import { useState } from "preact/hooks";
import { useClientState, useSession } from "../session";
import { ActionStatus, Field, FormActions, useAction } from "./controls";
import { moveItem, ReorderButtons } from "./reorder";

interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
  example_input?: string | null;
  reverse_template?: string | null;
  alternative_url_templates?: string[];
}

type Draft = { pattern: string; url_template: string; example_input: string; reverse_template: string; alternatives: string };

const draftOf = (l?: Linkifier): Draft => ({
  pattern: l?.pattern ?? "",
  url_template: l?.url_template ?? "",
  example_input: l?.example_input ?? "",
  reverse_template: l?.reverse_template ?? "",
  alternatives: (l?.alternative_url_templates ?? []).join("\n"),
});

/** The request parameters; empty optional strings reset the value to null (spec 4.17). */
function paramsOf(d: Draft): Record<string, unknown> {
  return {
    pattern: d.pattern,
    url_template: d.url_template,
    example_input: d.example_input,
    reverse_template: d.reverse_template,
    alternative_url_templates: d.alternatives.split("\n").map((t) => t.trim()).filter((t) => t !== ""),
  };
}

/** The form for a new linkifier (no `linkifier`) or an existing one. */
function LinkifierForm({ linkifier, onDone }: { linkifier?: Linkifier; onDone?(): void }) {
  const session = useSession();
  const [draft, setDraft] = useState<Draft>(draftOf(linkifier));
  const action = useAction();
  const prefix = linkifier ? `linkifier-${linkifier.id}` : "new-linkifier";
  const input = (key: keyof Draft, label: string, hint?: string) => (
    <Field id={`${prefix}-${key}`} label={label} hint={hint}>
      <input
        id={`${prefix}-${key}`}
        type="text"
        required={key === "pattern" || key === "url_template"}
        aria-describedby={hint ? `${prefix}-${key}-hint` : undefined}
        value={draft[key]}
        onInput={(e) => setDraft((d) => ({ ...d, [key]: (e.currentTarget as HTMLInputElement).value }))}
      />
    </Field>
  );
  const submit = async (e: Event) => {
    e.preventDefault();
    const call = linkifier ? () => session.api.patch(`/realm/filters/${linkifier.id}`, paramsOf(draft)) : () => session.api.post("/realm/filters", paramsOf(draft));
    const done = await action.run(call, linkifier ? "Linkifier saved" : "Linkifier added");
    if (!done) return;
    if (!linkifier) setDraft(draftOf());
    onDone?.();
  };
  return (
    <form aria-label={linkifier ? `Edit linkifier ${linkifier.pattern}` : "Add a linkifier"} onSubmit={(e) => void submit(e)}>
      <div class="settings-row">
        {input("pattern", "Pattern", "A regular expression, e.g. #(?P<id>[0-9]+)")}
        {input("url_template", "URL template", "e.g. https://github.com/org/repo/issues/{id}")}
      </div>
      <div class="settings-row">
        {input("example_input", "Example input", "Needed for a reverse template, e.g. #1234")}
        {input("reverse_template", "Reverse template", "e.g. #{id}")}
      </div>
      <Field id={`${prefix}-alternatives`} label="Alternative URL templates (one per line)">
        <textarea id={`${prefix}-alternatives`} rows={2} value={draft.alternatives} onInput={(e) => setDraft((d) => ({ ...d, alternatives: (e.currentTarget as HTMLTextAreaElement).value }))} />
      </Field>
      <FormActions label={linkifier ? "Save" : "Add linkifier"} state={action.state}>
        {onDone && linkifier && (
          <button type="button" class="button" onClick={onDone}>
            Cancel
          </button>
        )}
      </FormActions>
    </form>
  );
}

function LinkifierRow({ linkifier, index, order }: { linkifier: Linkifier; index: number; order: readonly number[] }) {
  const session = useSession();
  const [editing, setEditing] = useState(false);
  const action = useAction();
  if (editing) {
    return (
      <li class="settings-list-item">
        <LinkifierForm linkifier={linkifier} onDone={() => setEditing(false)} />
      </li>
    );
  }
  const remove = () => {
    if (window.confirm(`Delete the linkifier ${linkifier.pattern}?`)) void action.run(() => session.api.delete(`/realm/filters/${linkifier.id}`), "Linkifier deleted");
  };
  return (
    <li class="settings-list-item">
      <div class="settings-list-row">
        <div class="settings-list-main">
          <code>{linkifier.pattern}</code> → <code>{linkifier.url_template}</code>
          {linkifier.reverse_template && <div class="settings-muted">Reverse: {linkifier.reverse_template}</div>}
        </div>
        <ReorderButtons
          name={linkifier.pattern}
          index={index}
          count={order.length}
          onMove={(delta) => void action.run(() => session.api.patch("/realm/linkifiers", { ordered_linkifier_ids: moveItem(order, index, delta) }), "Order saved")}
        />
        <button type="button" class="button" onClick={() => setEditing(true)}>
          Edit
        </button>
        <button type="button" class="button button-danger" onClick={remove}>
          Delete
        </button>
      </div>
      <ActionStatus state={action.state} />
    </li>
  );
}

export function LinkifiersAdminPage() {
  const linkifiers = useClientState((s) => (s.register.realm_linkifiers ?? []) as Linkifier[]);
  const order = linkifiers.map((l) => l.id);
  return (
    <>
      <section class="settings-card" aria-labelledby="add-linkifier-title">
        <h2 id="add-linkifier-title">Add a linkifier</h2>
        <p class="settings-muted">Linkifiers turn patterns in messages and topics into links, tried in the order below.</p>
        <LinkifierForm />
      </section>
      <section class="settings-card" aria-labelledby="linkifiers-title">
        <h2 id="linkifiers-title">Linkifiers</h2>
        {linkifiers.length === 0 ? (
          <p class="settings-empty">No linkifiers yet.</p>
        ) : (
          <ol class="settings-list">
            {linkifiers.map((l, index) => (
              <LinkifierRow key={l.id} linkifier={l} index={index} order={order} />
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
