import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Pair } from "yaml";
import { formatPath } from "./problem.js";
import type { Problem } from "./types.js";

/** A parsed spec file that can say where any path in it is. */
export class SpecSource {
  private constructor(
    readonly file: string,
    readonly document: Document,
    private readonly lines: LineCounter,
  ) {}

  static parse(file: string, text: string): { source: SpecSource; problems: Problem[] } {
    const lines = new LineCounter();
    const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    const source = new SpecSource(file, document, lines);
    const problems = [...document.errors].map((error) => {
      const { line, col } = lines.linePos(error.pos[0]);
      return yamlProblem(file, text, line, col, firstLine(error.message));
    });
    // A tab in the indentation makes the parser misread what follows: the tab is the one problem.
    const tabs = problems.filter((problem) => problem.message.includes("a tab indents"));
    return { source, problems: dedupe(tabs.length > 0 ? tabs : problems) };
  }

  data(): unknown {
    return this.document.toJS({ maxAliasCount: 100 });
  }

  /**
   * A problem at `path`. With `at: "key"` it points at the key itself (unknown keys); otherwise at
   * the value, or at the closest existing parent when the path does not exist (missing keys).
   */
  problem(path: readonly (string | number)[], message: string, at: "key" | "value" = "value"): Problem {
    const offset = this.offsetOf(path, at);
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, column: col, path: formatPath(path), message };
  }

  private offsetOf(path: readonly (string | number)[], at: "key" | "value"): number {
    let node: unknown = this.document.contents;
    let offset = rangeStart(node) ?? 0;
    for (const [index, segment] of path.entries()) {
      const last = index === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((item: Pair) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (!pair) return offset;
        if (last && at === "key") return rangeStart(pair.key) ?? offset;
        node = pair.value;
        offset = rangeStart(node) ?? rangeStart(pair.key) ?? offset;
      } else if (isSeq(node) && typeof segment === "number") {
        node = node.items[segment];
        offset = rangeStart(node) ?? offset;
      } else {
        return offset;
      }
    }
    return offset;
  }
}

function rangeStart(node: unknown): number | undefined {
  if (isPair(node)) return rangeStart(node.key);
  return (node as Node | null | undefined)?.range?.[0];
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
}

/**
 * A YAML syntax error as a spec problem, said in the terms of the mistake: the parser reports an
 * unclosed `{` or `[` where it gave up (the next line); it is shown where it was opened.
 */
function yamlProblem(file: string, text: string, line: number, column: number, message: string): Problem {
  const problem = (at: number, col: number, said: string) => ({ file, line: at, column: col, path: "", message: `invalid YAML: ${said}` });
  if (/^Tabs are not allowed/.test(message)) return problem(line, column, "a tab indents this line; YAML indents with spaces only");
  const closing = /end with an? ([}\]])/.exec(message)?.[1];
  if (closing) {
    const opening = closing === "}" ? "{" : "[";
    const source = text.split("\n");
    for (let at = Math.min(line, source.length); at >= 1; at -= 1) {
      const unclosed = unclosedColumn(source[at - 1]!, opening, closing);
      if (unclosed !== undefined)
        return problem(at, unclosed, `this ${opening} is never closed (a flow ${opening === "{" ? "map" : "sequence"} ends with ${closing} on the same line)`);
    }
  }
  return problem(line, column, message);
}

/** The 1-based column of the last `open` on a line that its `close` does not match, outside quotes. */
function unclosedColumn(line: string, open: string, close: string): number | undefined {
  const stack: number[] = [];
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "#" && (index === 0 || line[index - 1] === " ")) break;
    else if (char === open) stack.push(index + 1);
    else if (char === close) stack.pop();
  }
  return stack.at(-1);
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.line}:${problem.column}:${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
