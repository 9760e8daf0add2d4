/** Alert words (Zulip's get-alert-words, add-alert-words, remove-alert-words). */
import { addAlertWords, getOwnAlertWords, MAX_ALERT_WORD_LENGTH, removeAlertWords } from "../actions/users/alert-words.js";
import { invalidParam } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";

const boundedWord: v.Validator<string> = (value, name) => {
  const word = v.str(value, name);
  if ([...word].length > MAX_ALERT_WORD_LENGTH) throw invalidParam(`${name} is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
  return word;
};

export const getAlertWords = endpoint({
  method: "GET",
  path: "/users/me/alert_words",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { alert_words: await getOwnAlertWords(ctx.deps, ctx.user) };
  },
});

export const postAlertWords = endpoint({
  method: "POST",
  path: "/users/me/alert_words",
  auth: "user",
  params: { alert_words: p.json(v.listOf(boundedWord)) },
  async handler(ctx, { alert_words }) {
    return { alert_words: await addAlertWords(ctx.deps, ctx.user, alert_words) };
  },
});

export const deleteAlertWords = endpoint({
  method: "DELETE",
  path: "/users/me/alert_words",
  auth: "user",
  params: { alert_words: p.json(v.listOf(v.str)) },
  async handler(ctx, { alert_words }) {
    return { alert_words: await removeAlertWords(ctx.deps, ctx.user, alert_words) };
  },
});

export const alertWordEndpoints = [getAlertWords, postAlertWords, deleteAlertWords];
