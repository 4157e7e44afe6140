import type { OutputFile } from "../output/types.js";
import { compileTemplate, createEngine, type RenderFunction } from "./engine.js";
import { withHeader } from "./header.js";
import type { Artifact } from "./plan.js";
import { sha256 } from "../output/hash.js";
import type { TemplateSpecification } from "./engine.js";

/** Templates compiled by `npm run build`, by path, with the sha256 of the source they were compiled from. */
export type PrecompiledTemplates = Readonly<Record<string, { sha256: string; spec: TemplateSpecification }>>;

/** The build's precompiled templates; none when running from the sources. */
export async function loadPrecompiledTemplates(): Promise<PrecompiledTemplates> {
  const url = new URL("./templates.compiled.js", import.meta.url).href;
  const loaded = (await import(url).catch(() => undefined)) as { default: PrecompiledTemplates } | undefined;
  return loaded?.default ?? {};
}

/**
 * Renders the planned artifacts. A template that renders to nothing but whitespace produces no file:
 * that is how a template opts out for a resource or a database it does not apply to.
 */
export function renderArtifacts(artifacts: Artifact[], precompiled: PrecompiledTemplates = {}): OutputFile[] {
  const specs = new Map<string, TemplateSpecification | undefined>();
  for (const { template } of artifacts) {
    if (specs.has(template.path)) continue;
    const built = precompiled[template.path];
    specs.set(template.path, built && built.sha256 === sha256(template.source) ? built.spec : undefined);
  }
  const engine = createEngine({ compiler: [...specs.values()].some((spec) => spec === undefined) });
  const compiled = new Map<string, RenderFunction>();
  const files: OutputFile[] = [];
  for (const artifact of artifacts) {
    let render = compiled.get(artifact.template.path);
    if (!render) {
      const spec = specs.get(artifact.template.path);
      render = compileTemplate(engine, artifact.template.source, `${artifact.template.path}.hbs`, spec);
      compiled.set(artifact.template.path, render);
    }
    const body = render(artifact.view);
    if (body.trim() === "") continue;
    files.push({
      path: artifact.outputPath,
      content: withHeader(artifact.outputPath, body, artifact.ownership, artifact.source),
      ownership: artifact.ownership,
      source: artifact.source,
      laidOut: true,
    });
  }
  return files;
}
