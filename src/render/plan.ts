import type { Ownership } from "../output/types.js";
import type { JobModel, ProjectModel, ResourceModel } from "../model/types.js";
import type { TemplateSource } from "./templates.js";

/** The placeholder segment that makes a template render once per resource. */
export const resourcePlaceholder = "__resource__";
/** The placeholder segment that makes a template render once per job of hashapi.yaml (its code is yours, a file each). */
export const jobPlaceholder = "__job__";
/** Where the files that are yours live: created once, never overwritten (your controllers, policies, test overrides). */
const userOwnedRoots = ["src/custom/", "test/custom/"];

export interface Artifact {
  template: TemplateSource;
  outputPath: string;
  ownership: Ownership;
  source: string;
  view: { project: ProjectModel; resource: ResourceModel | null; job: JobModel | null };
}

/** Which template renders to which path with which view: the whole table, decided before rendering. */
export function planArtifacts(project: ProjectModel, templates: TemplateSource[]): Artifact[] {
  const artifacts: Artifact[] = [];
  for (const template of templates) {
    const ownership: Ownership = userOwnedRoots.some((root) => template.path.startsWith(root)) ? "user" : "generated";
    if (template.path.includes(resourcePlaceholder)) {
      for (const resource of project.resources) {
        artifacts.push({
          template,
          outputPath: template.path.replaceAll(resourcePlaceholder, resource.names.kebab),
          ownership,
          source: resource.source,
          view: { project, resource, job: null },
        });
      }
    } else if (template.path.includes(jobPlaceholder)) {
      for (const job of project.jobs) {
        artifacts.push({
          template,
          outputPath: template.path.replaceAll(jobPlaceholder, job.name),
          ownership,
          source: project.source,
          view: { project, resource: null, job },
        });
      }
    } else {
      artifacts.push({
        template,
        outputPath: template.path,
        ownership,
        source: project.source,
        view: { project, resource: null, job: null },
      });
    }
  }
  return artifacts.sort((left, right) => left.outputPath.localeCompare(right.outputPath));
}
