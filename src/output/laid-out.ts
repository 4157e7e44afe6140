import { prettierOptions } from "./format-options.js";

const width = prettierOptions.printWidth ?? 80;

/**
 * Whether a rendered TypeScript or JSON file can be written as its template laid it out, without
 * prettier: templates are written in prettier's layout (test/render/layout.test.ts renders the
 * example, the every-type fixture and synthetic projects and compares each such file with prettier's
 * output), so only a line of code that a long name or many values pushed past the print width
 * needs prettier to break it (prettier leaves comments and a string alone on its line as they are).
 * Formatting was most of a fresh generation's time, for files it did not change.
 */
export function isLaidOut(path: string, content: string): boolean {
  // Markdown: prose is kept as written (proseWrap "preserve"); tables are aligned by the template.
  if (path.endsWith(".md")) return true;
  if (!/\.(ts|json)$/.test(path)) return false;
  let start = 0;
  while (start < content.length) {
    const end = content.indexOf("\n", start);
    const stop = end === -1 ? content.length : end;
    if (stop - start > width && !isUnbreakable(content.slice(start, stop))) return false;
    start = stop + 1;
  }
  return true;
}

/**
 * A comment, a string standing alone on its line (an argument), an import of a default export alone
 * (a JSON declaration with its `with { type: "json" }`), or a test's opening line (`it("…", async
 * () => {`, which prettier never breaks): prettier keeps each as it is.
 */
function isUnbreakable(line: string): boolean {
  const text = line.trim();
  if (text.startsWith("//") || text.startsWith("/*") || text.startsWith("* ")) return true;
  return /^(["`]).*\1,?$/.test(text) || defaultImport.test(line) || testOpening.test(text);
}

const defaultImport = /^import [A-Za-z_$][\w$]* from "[^"]*"(?: with \{ type: "json" \})?;$/;
const testOpening = /^(?:it|test|describe)\("[^"\\]*", (?:async )?\(\) => \{$/;
