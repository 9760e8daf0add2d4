/**
 * Code blocks in Zulip's markup: `<div class="codehilite" data-code-language="Python"><pre>
 * <span></span><code>…</code></pre></div>`. Zulip highlights with Pygments; we do not highlight
 * (clients that want colours highlight on their side), but keep the same structure and report
 * the language under Pygments' display name, which is what clients key their highlighting on.
 */
import { escapeHtml } from "./html.js";

/** Pygments display names of common lexers, keyed by the aliases people type after ```. */
const LANGUAGE_NAMES: Record<string, string> = {};
const ALIASES: [string, string[]][] = [
  ["Python", ["python", "py", "py3", "python3", "sage", "bazel", "starlark"]],
  ["Python 2.x", ["python2", "py2"]],
  ["PHP", ["php", "php3", "php4", "php5"]],
  ["CSS", ["css"]],
  ["HTML", ["html"]],
  ["XML", ["xml"]],
  ["JavaScript", ["javascript", "js"]],
  ["TypeScript", ["typescript", "ts"]],
  ["JSON", ["json"]],
  ["YAML", ["yaml", "yml"]],
  ["TOML", ["toml"]],
  ["TeX", ["tex", "latex"]],
  ["Bash", ["bash", "sh", "ksh", "zsh", "shell"]],
  ["Console", ["console", "shell-session"]],
  ["C", ["c"]],
  ["C++", ["c++", "cpp"]],
  ["C#", ["c#", "csharp"]],
  ["Java", ["java"]],
  ["Kotlin", ["kotlin"]],
  ["Scala", ["scala"]],
  ["Go", ["go", "golang"]],
  ["Rust", ["rust", "rs"]],
  ["Ruby", ["ruby", "rb"]],
  ["Perl", ["perl", "pl"]],
  ["Haskell", ["haskell", "hs"]],
  ["Elixir", ["elixir", "ex", "exs"]],
  ["Erlang", ["erlang"]],
  ["Swift", ["swift"]],
  ["Objective-C", ["objective-c", "objc"]],
  ["SQL", ["sql"]],
  ["PostgreSQL SQL dialect", ["postgresql", "postgres"]],
  ["Diff", ["diff", "udiff"]],
  ["Markdown", ["markdown", "md"]],
  ["Docker", ["docker", "dockerfile"]],
  ["Makefile", ["make", "makefile", "mf", "bsdmake"]],
  ["INI", ["ini", "cfg", "dosini"]],
  ["Lua", ["lua"]],
  ["R", ["r", "splus", "s"]],
  ["Text only", ["text"]],
];
for (const [name, aliases] of ALIASES) for (const alias of aliases) LANGUAGE_NAMES[alias] = name;

/**
 * The data-code-language value for a fence's language: Pygments' name where we know the lexer,
 * combined lexers like `css+php` as "CSS+PHP", and anything else as typed (Zulip keeps unknown
 * languages so clients can still match them against their own lists).
 */
export function codeLanguageName(lang: string): string {
  const known = LANGUAGE_NAMES[lang.toLowerCase()];
  if (known) return known;
  const parts = lang.split("+");
  if (parts.length > 1 && parts.every((p) => LANGUAGE_NAMES[p.toLowerCase()])) {
    return parts.map((p) => LANGUAGE_NAMES[p.toLowerCase()]).join("+");
  }
  return lang;
}

/**
 * Like Pygments (which renders every Zulip code block), drop leading and trailing blank lines
 * and trailing whitespace on each line, and end the block with exactly one newline.
 */
export function renderCodeBlock(code: string, lang: string): string {
  const body = code
    .replace(/^(?:[ \t]*\n)+/, "")
    .replace(/\s+$/, "")
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .join("\n");
  const langAttr = lang === "" ? "" : ` data-code-language="${escapeHtml(codeLanguageName(lang))}"`;
  return `<div class="codehilite"${langAttr}><pre><span></span><code>${escapeHtml(body)}\n</code></pre></div>\n`;
}
