import { createRequire } from "node:module";
import type Handlebars from "handlebars";

const require = createRequire(import.meta.url);

/** A precompiled template (handlebars does not export the name of its type). */
export type TemplateSpecification = Parameters<typeof Handlebars.template>[0];
import { TemplateError } from "../errors.js";
import { alignTable, literalElement, literalProperty, tsInline } from "./layout.js";

export type RenderFunction = (view: object) => string;

/**
 * An isolated Handlebars instance: helpers registered here never leak into, or depend on, another
 * copy of Handlebars in the same process. Strict mode turns a misspelled model property into an
 * error instead of an empty string in the output. Without `compiler`, the runtime alone: it runs the
 * templates `npm run build` precompiled, and loads in a third of the time of the whole of Handlebars.
 */
export function createEngine({ compiler = true }: { compiler?: boolean } = {}): typeof Handlebars {
  const handlebars = (compiler ? require("handlebars") : require("handlebars/runtime")) as typeof Handlebars;
  const engine = handlebars.create();
  // Helpers only format model values; all decisions are made in the model.
  engine.registerHelper("tsInline", (value: unknown) => tsInline(value));
  // `{{#property "columns" "{}"}}` one entry per line `{{/property}}`: a property of a top-level
  // object literal, on one line when it fits the print width, else one entry per line, as prettier
  // breaks it.
  engine.registerHelper("property", function (this: unknown, name: string, brackets: string, options: Handlebars.HelperOptions) {
    return literalProperty(name, brackets, options.fn(this));
  });
  // `{{#element 4}}` one entry per line `{{/element}}`: an object literal in a list, on one line
  // when it fits, else broken as prettier breaks it.
  engine.registerHelper("element", function (this: unknown, indent: number, options: Handlebars.HelperOptions) {
    return literalElement(indent, options.fn(this));
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
