import { blindDeleteWarnings } from "../model/blind-deletes.js";
import { unfillableFieldWarnings } from "../model/unfillable.js";
import { basename, resolve, sep } from "node:path";
import { SpecError } from "../errors.js";
import { buildModel } from "../model/build.js";
import type { ProjectModel } from "../model/types.js";
import { addManifest, createFileMap, formatFiles, type FileMap } from "../output/index.js";
import { planArtifacts } from "../render/plan.js";
import { loadPrecompiledTemplates, renderArtifacts } from "../render/render.js";
import { emitFiles } from "../emit/index.js";
import { loadRuntime } from "../render/runtime.js";
import { loadTemplates } from "../render/templates.js";
import { formatProblem, loadSpecsDir, validateSpecs } from "../spec/index.js";
import type { ValidSpecs } from "../spec/types.js";

export interface GenerateOptions {
  /** Folder of `.hbs` templates; defaults to the ones shipped with hashapi. */
  templatesDir?: string;
  /** Folder of the runtime library copied into every project; defaults to the one shipped with hashapi. */
  runtimeDir?: string;
  /**
   * The output directory the result is for, when it may already hold an earlier generation: its
   * files that are still what formatting would give are reused instead of formatted again, which is
   * most of the time of a regeneration or a `--check`. The returned bytes are the same either way.
   */
  previousOutput?: string;
  /** Filled with what was read from `previousOutput` (see FormatOptions.reads). */
  reads?: Map<string, string>;
}

/**
 * Reads and validates a specs folder. Throws SpecError with every problem found, each formatted as
 * `specs/patient.yaml:7:5 fields.name.type: …`.
 */
export async function loadValidSpecs(specsDir: string, notice?: (text: string) => void): Promise<ValidSpecs> {
  const loaded = await loadSpecsDir(portablePath(specsDir), displayPath(specsDir), notice);
  const { problems, specs } = validateSpecs(loaded);
  if (problems.length > 0 || !specs) throw new SpecError(problems.map(formatProblem), problems);
  return specs;
}

/** The model of a specs folder, labelled by the folder's own name so output never depends on cwd. */
export async function loadModel(specsDir: string, notice?: (text: string) => void): Promise<ProjectModel> {
  const specs = await loadValidSpecs(specsDir, notice);
  const model = buildModel(specs, specsLabel(portablePath(specsDir)));
  for (const warning of [...blindDeleteWarnings(specs), ...unfillableFieldWarnings(model)]) notice?.(warning);
  return model;
}

/** `specs\` typed as on Windows reads as `specs/` elsewhere too (a backslash is no separator there). */
export function portablePath(path: string): string {
  return sep === "\\" ? path : path.replaceAll("\\", "/");
}

/**
 * The public API: specs folder in, complete file map out (formatted, with the manifest). Touches no
 * output directory; migrations, which depend on what was written before, are added by `planOutput`.
 */
export async function generate(specsDir: string, options: GenerateOptions = {}): Promise<FileMap> {
  return renderModel(await loadModel(specsDir), options);
}

export async function renderModel(model: ProjectModel, options: GenerateOptions = {}): Promise<FileMap> {
  const [templates, runtime, precompiled] = await Promise.all([
    loadTemplates(options.templatesDir),
    loadRuntime(model.database, model.source, options.runtimeDir),
    options.templatesDir === undefined ? loadPrecompiledTemplates() : {},
  ]);
  const files = [...runtime, ...emitFiles(model), ...renderArtifacts(planArtifacts(model, templates), precompiled)];
  const formatted = await formatFiles(createFileMap(files), { previousOutput: options.previousOutput, reads: options.reads });
  return addManifest(formatted);
}

export function specsLabel(specsDir: string): string {
  return `${basename(resolve(specsDir))}/`;
}

/** The specs folder as the user typed it, with forward slashes, for error messages. */
function displayPath(specsDir: string): string {
  return specsDir.split("\\").join("/").replace(/\/+$/, "") || ".";
}
