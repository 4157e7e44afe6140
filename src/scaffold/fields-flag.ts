import { UsageError } from "../errors.js";
import { fieldTypeNames } from "../model/field-types.js";

export interface FieldFlag {
  name: string;
  type: string;
  options: Record<string, string | number | boolean>;
}

const fieldTypes = new Set<string>(fieldTypeNames);
const flagOptions = new Set(["unique", "nullable", "index", "search"]);
const numericOptions = new Set(["max", "min", "length", "precision", "scale"]);

/** The modifiers `--fields` takes, as `add-resource --help` and its errors list them. */
export const fieldModifiers = "unique, nullable, index, search, max=N, min=N, length=N, precision=N, scale=N, default=V, values=a|b|c (enum), set=create|write (date, datetime: the server sets the time)";

/** A `default=` value as YAML would read it: a number, true/false, or the text as written. */
function defaultValue(text: string): string | number | boolean {
  if (text === "true" || text === "false") return text === "true";
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/**
 * Parses `--fields name:string,cpf:string:unique,phone:string:nullable:max=20,status:enum:values=a|b`.
 * Every mistake is a usage error naming the piece that is wrong.
 */
export function parseFieldsFlag(text: string): FieldFlag[] {
  const seen = new Set<string>();
  return text
    .split(",")
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((piece) => {
      const [name = "", type = "string", ...modifiers] = piece.split(":");
      if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new UsageError(`--fields: "${name}" in "${piece}" must be a snake_case name`);
      if (seen.has(name)) throw new UsageError(`--fields: "${name}" appears twice`);
      seen.add(name);
      if (!fieldTypes.has(type))
        throw new UsageError(`--fields: unknown type "${type}" in "${piece}"; expected one of ${[...fieldTypes].join(", ")}`);
      const options: FieldFlag["options"] = {};
      for (const modifier of modifiers) {
        const [key = "", value] = modifier.split("=");
        if (value === undefined && flagOptions.has(key)) options[key] = true;
        else if (value !== undefined && numericOptions.has(key) && /^\d+$/.test(value)) options[key] = Number(value);
        else if (value !== undefined && key === "values" && type === "enum") options.values = value;
        else if (value !== undefined && key === "default") options.default = defaultValue(value);
        else if (key === "set" && (value === "create" || value === "write")) options.set = value;
        else throw new UsageError(`--fields: unknown modifier "${modifier}" in "${piece}"; expected one of ${fieldModifiers}`);
      }
      if (type === "enum" && options.values === undefined)
        throw new UsageError(`--fields: enum "${name}" needs its values, e.g. ${name}:enum:values=active|inactive`);
      return { name, type, options };
    });
}
