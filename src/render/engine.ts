import Handlebars from "handlebars";
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
  engine.registerHelper("json", (value: unknown) => JSON.stringify(value, null, 2));
  engine.registerHelper("jsonInline", (value: unknown) => JSON.stringify(value));
  engine.registerHelper("eq", (left: unknown, right: unknown) => left === right);
  engine.registerHelper("not", (value: unknown) => !value);
  engine.registerHelper("or", (...args: unknown[]) => args.slice(0, -1).some(Boolean));
  engine.registerHelper("and", (...args: unknown[]) => args.slice(0, -1).every(Boolean));
  return engine;
}

export function compileTemplate(
  engine: typeof Handlebars,
  source: string,
  templatePath: string,
): RenderFunction {
  const template = engine.compile(source, { strict: true, noEscape: true });
  return (view) => {
    try {
      return template(view);
    } catch (error) {
      throw new TemplateError(`template ${templatePath}: ${(error as Error).message}`, { cause: error });
    }
  };
}
