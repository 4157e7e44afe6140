import { prettierOptions } from "../output/format-options.js";

/*
 * Layout helpers of the templates: each writes model values the way prettier would print them, so
 * that a rendered file that fits the print width needs no prettier pass (src/output/laid-out.ts;
 * test/render/layout.test.ts checks the templates stay so).
 */

/**
 * A JSON value as a TypeScript literal on one line, spaced as prettier spaces it (`["a", "b"]`,
 * `{ name: "string" }`, keys unquoted where they are identifiers): rendered files that fit the print
 * width are written without prettier (src/output/laid-out.ts).
 */
export function tsInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(tsInline).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
    return `{ ${entries.map(([name, item]) => `${key(name)}: ${tsInline(item)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

/**
 * A Markdown table's rows (`| a | b |`, the second one `|---|---|`) padded into aligned columns, as
 * prettier's markdown printer aligns them, so that a rendered README needs no prettier pass.
 */
export function alignTable(text: string): string {
  const rows = text
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map(splitRow);
  const length = (cell = "") => [...cell].length;
  const contentRows = rows.filter((_, index) => index !== 1);
  const widths = rows[0]!.map((_, column) => Math.max(3, ...contentRows.map((row) => length(row[column]))));
  const lines = rows.map((row, index) => {
    const cells = widths.map((width, column) =>
      index === 1 ? "-".repeat(width) : `${row[column] ?? ""}${" ".repeat(width - length(row[column]))}`,
    );
    return `| ${cells.join(" | ")} |`;
  });
  return `${lines.join("\n")}\n`;
}

/** The cells of a table row, trimmed; a `|` inside backticks or escaped stays in its cell. */
function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let code = false;
  for (let index = 1; index < line.length; index += 1) {
    const char = line[index]!;
    if (char === "`") code = !code;
    if (char === "\\" && index + 1 < line.length) {
      cell += char + line[index + 1]!;
      index += 1;
    } else if (char === "|" && !code) {
      cells.push(cell.trim());
      cell = "";
    } else cell += char;
  }
  return cells;
}

const printWidth = prettierOptions.printWidth ?? 80;

/** `  name: { a, b },` when that fits the print width, else each entry on its own line. */
export function literalProperty(name: string, brackets: string, entriesText: string): string {
  const entries = entriesText.split("\n").map((entry) => entry.trim()).filter((entry) => entry !== "");
  const [open, close] = [brackets[0]!, brackets[1]!];
  const padding = open === "{" && entries.length > 0 ? " " : "";
  const inline = `  ${name}: ${open}${padding}${entries.join(", ")}${padding}${close},`;
  // Prettier always breaks an array of two or more objects of several keys each.
  const objectList = open === "[" && entries.length > 1 && entries.every((entry) => entry.startsWith("{") && entry.includes(","));
  if (inline.length <= printWidth && !objectList) return `${inline}\n`;
  return `  ${name}: ${open}\n${entries.map((entry) => `    ${entry},\n`).join("")}  ${close},\n`;
}

/**
 * An object literal as an element of a list, `indent` spaces in: `{ a, b },` on one line when that
 * fits the print width, else one entry per line, as prettier breaks it.
 */
export function literalElement(indent: number, entriesText: string): string {
  const entries = entriesText.split("\n").map((entry) => entry.trim()).filter((entry) => entry !== "");
  const margin = " ".repeat(indent);
  const inline = `${margin}{ ${entries.join(", ")} },`;
  if (inline.length <= printWidth) return `${inline}\n`;
  return `${margin}{\n${entries.map((entry) => `${margin}  ${entry},\n`).join("")}${margin}},\n`;
}
