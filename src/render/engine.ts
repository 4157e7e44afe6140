import Handlebars from "handlebars";

/** A precompiled template (handlebars does not export the name of its type). */
export type TemplateSpecification = Parameters<typeof Handlebars.template>[0];
import { TemplateError } from "../errors.js";

export type RenderFunction = (view: object) => string;

/**
 * An isolated Handlebars instance: helpers registered here never leak into, or depend on, another
 * copy of Handlebars in the same process. Strict mode turns a misspelled model property into an
 * error instead of an empty string in the output.
 */
export function createEngine(): typeof Handlebars {
  const engine = Handlebars.create();
  // Helpers only format model values; all decisions are made in the model.
  engine.registerHelper("tsInline", (value: unknown) => tsInline(value));
  // `{{#property "columns" "{}"}}` one entry per line `{{/property}}`: a property of a top-level
  // object literal, on one line when it fits the print width, else one entry per line, as prettier
  // breaks it.
  engine.registerHelper("property", function (this: unknown, name: string, brackets: string, options: Handlebars.HelperOptions) {
    return literalProperty(name, brackets, options.fn(this));
  });
  engine.registerHelper("alignedTable", function (this: unknown, options: Handlebars.HelperOptions) {
    return alignTable(options.fn(this));
  });
  engine.registerHelper("eq", (left: unknown, right: unknown) => left === right);
  engine.registerHelper("not", (value: unknown) => !value);
  engine.registerHelper("or", (...args: unknown[]) => args.slice(0, -1).some(Boolean));
  engine.registerHelper("and", (...args: unknown[]) => args.slice(0, -1).every(Boolean));
  return engine;
}

export const templateOptions = { strict: true, noEscape: true } as const;

/** A template function from its source, or from its precompiled form (scripts/precompile-templates.mjs). */
export function compileTemplate(
  engine: typeof Handlebars,
  source: string,
  templatePath: string,
  precompiled?: TemplateSpecification,
): RenderFunction {
  const template = precompiled ? engine.template(precompiled) : engine.compile(source, templateOptions);
  return (view) => {
    try {
      return template(view);
    } catch (error) {
      throw new TemplateError(`template ${templatePath}: ${(error as Error).message}`, { cause: error });
    }
  };
}

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

const printWidth = 100;

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
