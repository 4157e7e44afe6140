import type { Ownership } from "../output/types.js";
import type { ProjectModel, ResourceModel } from "../model/types.js";
import type { TemplateSource } from "./templates.js";

/** The placeholder segment that makes a template render once per resource. */
export const resourcePlaceholder = "__resource__";
const userOwnedRoot = "src/custom/";

export interface Artifact {
  template: TemplateSource;
  outputPath: string;
  ownership: Ownership;
  source: string;
  view: { project: ProjectModel; resource: ResourceModel | null };
}

/** Which template renders to which path with which view: the whole table, decided before rendering. */
export function planArtifacts(project: ProjectModel, templates: TemplateSource[]): Artifact[] {
  const artifacts: Artifact[] = [];
  for (const template of templates) {
    const ownership: Ownership = template.path.startsWith(userOwnedRoot) ? "user" : "generated";
    if (template.path.includes(resourcePlaceholder)) {
      for (const resource of project.resources) {
        artifacts.push({
          template,
          outputPath: template.path.replaceAll(resourcePlaceholder, resource.names.kebab),
          ownership,
          source: resource.source,
          view: { project, resource },
        });
      }
    } else {
      artifacts.push({
        template,
        outputPath: template.path,
        ownership,
        source: project.source,
        view: { project, resource: null },
      });
    }
  }
  return artifacts.sort((left, right) => left.outputPath.localeCompare(right.outputPath));
}
