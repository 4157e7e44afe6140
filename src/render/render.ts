import type { OutputFile } from "../output/types.js";
import { compileTemplate, createEngine, type RenderFunction } from "./engine.js";
import { withHeader } from "./header.js";
import type { Artifact } from "./plan.js";

/**
 * Renders the planned artifacts. A template that renders to nothing but whitespace produces no file:
 * that is how a template opts out for a resource or a database it does not apply to.
 */
export function renderArtifacts(artifacts: Artifact[]): OutputFile[] {
  const engine = createEngine();
  const compiled = new Map<string, RenderFunction>();
  const files: OutputFile[] = [];
  for (const artifact of artifacts) {
    let render = compiled.get(artifact.template.path);
    if (!render) {
      render = compileTemplate(engine, artifact.template.source, `${artifact.template.path}.hbs`);
      compiled.set(artifact.template.path, render);
    }
    const body = render(artifact.view);
    if (body.trim() === "") continue;
    files.push({
      path: artifact.outputPath,
      content: withHeader(artifact.outputPath, body, artifact.ownership, artifact.source),
      ownership: artifact.ownership,
      source: artifact.source,
    });
  }
  return files;
}
