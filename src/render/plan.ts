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

/** One rendering of a template: the name its placeholder takes, the spec it comes from, and its view. */
interface Rendering {
  name: string;
  source: string;
  view: Artifact["view"];
}

/** What each placeholder renders a template for: every resource, or every job of hashapi.yaml. */
function renderingsOf(project: ProjectModel): [placeholder: string, renderings: Rendering[]][] {
  return [
    [resourcePlaceholder, project.resources.map((resource) => ({ name: resource.names.kebab, source: resource.source, view: { project, resource, job: null } }))],
    [jobPlaceholder, project.jobs.map((job) => ({ name: job.name, source: project.source, view: { project, resource: null, job } }))],
  ];
}

/** Which template renders to which path with which view: the whole table, decided before rendering. */
export function planArtifacts(project: ProjectModel, templates: TemplateSource[]): Artifact[] {
  const artifacts: Artifact[] = [];
  const perPlaceholder = renderingsOf(project);
  const once: Rendering = { name: "", source: project.source, view: { project, resource: null, job: null } };
  for (const template of templates) {
    const ownership: Ownership = userOwnedRoots.some((root) => template.path.startsWith(root)) ? "user" : "generated";
    const [placeholder, renderings] = perPlaceholder.find(([candidate]) => template.path.includes(candidate)) ?? [undefined, [once]];
    for (const { name, source, view } of renderings)
      artifacts.push({ template, outputPath: placeholder ? template.path.replaceAll(placeholder, name) : template.path, ownership, source, view });
  }
  return artifacts.sort((left, right) => left.outputPath.localeCompare(right.outputPath));
}
