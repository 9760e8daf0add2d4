/**
 * Zulip nests lists by two-space steps (its list processors run with tab_length = 2), so
 *
 *     1. A
 *     2. B
 *       3. C
 *
 * makes C a sub-item of B. CommonMark instead wants a sub-item indented to its parent's content
 * column (three spaces after "2. "), and reads the two-space line as a sibling. Before parsing we
 * re-indent list lines: each two spaces of indentation is one nesting level, and a line at level
 * n is moved to the content column of its level n-1 ancestor. Fenced code is left alone.
 */

const ITEM = /^( *)([*+-]|\d{1,9}[.)])( +|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Level {
  /** Column where this item's content starts after re-indentation. */
  content: number;
}

export function reindentLists(source: string): string {
  // Fast path: nothing that could be a nested list line.
  if (!/\n {1,}(?:[*+-]|\d{1,9}[.)])( |$)/m.test(source)) return source;

  const lines = source.split("\n");
  let stack: Level[] = [];
  let base = 0;
  let fence: string | null = null;
  let previousBlank = true;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length && line.trim() === fenceMatch[1]) {
        fence = null;
      }
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      continue;
    }

    const blank = line.trim() === "";
    const item = ITEM.exec(line);
    if (item && (stack.length > 0 || item[1].length < 4)) {
      const indent = item[1].length;
      if (stack.length === 0) base = indent;
      const level = Math.min(Math.max(0, Math.floor((indent - base) / 2)), stack.length);
      const column = level === 0 ? base : stack[level - 1].content;
      stack = stack.slice(0, level);
      const spaces = item[3].length === 0 ? 1 : Math.min(item[3].length, 4);
      stack.push({ content: column + item[2].length + spaces });
      lines[i] = " ".repeat(column) + line.slice(indent);
    } else if (stack.length > 0 && !blank) {
      const indent = line.length - line.trimStart().length;
      if (indent === 0) {
        // An unindented line after a blank one ends the list; otherwise it is a lazy continuation.
        if (previousBlank) stack = [];
      } else {
        const level = Math.min(Math.max(1, Math.floor((indent - base) / 2)), stack.length);
        lines[i] = " ".repeat(stack[level - 1].content) + line.trimStart();
      }
    }
    previousBlank = blank;
  }
  return lines.join("\n");
}
