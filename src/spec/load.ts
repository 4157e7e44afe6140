import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { HashapiError } from "../errors.js";
import { SpecSource } from "./source.js";
import type { Problem } from "./types.js";

export const projectFileName = "hashapi.yaml";

export interface LoadedFile {
  source: SpecSource;
  data: unknown;
}

export interface LoadedSpecs {
  project: LoadedFile | null;
  resources: LoadedFile[];
  /** YAML syntax problems; files with any are left out of `resources`. */
  problems: Problem[];
}

/** Parses one spec file. Pure: `file` is only the label that messages show. */
export function parseSpecFile(file: string, text: string): { loaded: LoadedFile; problems: Problem[] } {
  const { source, problems } = SpecSource.parse(file, text);
  return { loaded: { source, data: problems.length === 0 ? source.data() : null }, problems };
}

/** Reads every `*.yaml`/`*.yml` of a specs folder, in name order; `display` prefixes messages. */
export async function loadSpecsDir(dir: string, display = dir): Promise<LoadedSpecs> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === "ENOENT" ? "does not exist" : error.code === "ENOTDIR" ? "is not a folder" : `cannot be read (${error.code})`;
    throw new HashapiError(`specs folder "${display}" ${reason}; create one with \`hashapi init ${display}\``);
  });
  const specFiles = names.filter((name) => /\.ya?ml$/.test(name)).sort();
  if (!specFiles.some((name) => name !== projectFileName)) {
    throw new HashapiError(`specs folder "${display}" holds no resource spec (*.yaml); add one with \`hashapi add-resource <name> --specs ${display}\``);
  }
  const result: LoadedSpecs = { project: null, resources: [], problems: [] };
  // Read together (the disk answers while YAML parses), parsed in name order.
  const texts = await Promise.all(specFiles.map((name) => readFile(join(dir, name), "utf8")));
  for (const [index, name] of specFiles.entries()) {
    const { loaded, problems } = parseSpecFile(`${display}/${name}`, texts[index]!);
    result.problems.push(...problems);
    if (problems.length > 0) continue;
    if (name === projectFileName) result.project = loaded;
    else result.resources.push(loaded);
  }
  return result;
}
