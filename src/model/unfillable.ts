import { exampleValue, isFileKey, isRelationKey, type PropertySchema } from "./example-values.js";
import type { ProjectModel } from "./types.js";

/**
 * Fields whose values the generated tests and seed data cannot make (src/model/example-values.ts):
 * a `regex` that the derived value does not match and no `example:` to fall back on. One warning
 * each, naming the file, the field and the way out; the project is still generated.
 */
export function unfillableFieldWarnings(model: ProjectModel): string[] {
  const warnings: string[] = [];
  for (const resource of model.resources) {
    const properties = resource.validation.create.schema.properties ?? {};
    for (const [key, property] of Object.entries(properties) as [string, PropertySchema][]) {
      if (isRelationKey(property) || isFileKey(property) || exampleValue(property, key, 1) !== undefined) continue;
      const pattern = property.pattern === undefined ? "its rules" : `/${property.pattern}/`;
      warnings.push(
        `warning: ${resource.source} fields.${key}: the generated tests and seed data cannot make a value that matches ${pattern}; give one with \`example:\` on the field (e.g. example: "…")`,
      );
    }
  }
  return warnings;
}
