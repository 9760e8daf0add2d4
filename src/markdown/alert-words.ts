/**
 * Alert words: a user's own list of words that should notify them like a mention. As in Zulip,
 * matching ignores case and needs the word to stand alone: at the start or after whitespace or
 * one of ( " . , ' ; [ * ` >, and at the end or before whitespace or one of ) " ? : . , ' ; ] ! * `.
 */

const BEFORE = new Set([" ", "\n", "(", '"', ".", ",", "'", ";", "[", "*", "`", ">"]);
const AFTER = new Set([" ", "\n", ")", '"', "?", ":", ".", ",", "'", ";", "]", "!", "*", "`"]);

/** The words (as given) that occur in the content. */
export function findAlertWords(content: string, words: string[]): string[] {
  if (words.length === 0) return [];
  const haystack = content.toLowerCase();
  const found: string[] = [];
  for (const word of words) {
    const needle = word.toLowerCase();
    if (needle === "") continue;
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if ((at === 0 || BEFORE.has(haystack[at - 1])) && (end === haystack.length || AFTER.has(haystack[end]))) {
        found.push(word);
        break;
      }
    }
  }
  return found;
}
