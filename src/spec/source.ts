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
      return { file, line, column: col, path: "", message: `invalid YAML: ${firstLine(error.message)}` };
    });
    return { source, problems };
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
