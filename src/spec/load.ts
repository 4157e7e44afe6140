import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { HashapiError } from "../errors.js";
import { SpecSource } from "./source.js";
import type { Problem } from "./types.js";

export const projectFileName = "hashapi.yaml";

export interface LoadedFile {
  source: SpecSource;
  data: unknown;
  /** A file that is not valid YAML: the resource name its `name:` line gives, when it gives one. */
  unreadableName?: string;
}

export interface LoadedSpecs {
  project: LoadedFile | null;
  resources: LoadedFile[];
  /** YAML syntax problems; files with any are left out of `resources`. */
  problems: Problem[];
  /**
   * The `name:` of files left out for their syntax, read from the text: their resources exist, so
   * relations to them are not also reported as unknown.
   */
  unreadableNames?: string[];
}

/** Parses one spec file. Pure: `file` is only the label that messages show. */
export function parseSpecFile(file: string, text: string): { loaded: LoadedFile; problems: Problem[] } {
  return fromSource(file, text, SpecSource.parse(file, text));
}

/**
 * The files loadSpecsDir parsed last, by label and text: `generate --watch` reads the whole folder
 * on every save, and parsing a hundred unchanged YAML files is most of that read (≈ 40 ms). A parsed
 * document is never changed (each load takes fresh data from it), so the same text can share one.
 */
let lastParsed = new Map<string, ReturnType<typeof SpecSource.parse>>();

function parseDirFile(file: string, text: string, parsed: Map<string, ReturnType<typeof SpecSource.parse>>) {
  const key = `${file}\n${text}`;
  const found = lastParsed.get(key) ?? SpecSource.parse(file, text);
  parsed.set(key, found);
  return fromSource(file, text, found);
}

function fromSource(file: string, text: string, { source, problems }: ReturnType<typeof SpecSource.parse>): { loaded: LoadedFile; problems: Problem[] } {
  if (problems.length === 0) return { loaded: { source, data: source.data() }, problems };
  // Unreadable as YAML, but its `name:` line usually is: its resource exists (see LoadedSpecs).
  const name = /^name:\s*["']?([A-Z][A-Za-z0-9]*)/m.exec(text)?.[1];
  return { loaded: { source, data: null, ...(name ? { unreadableName: name } : {}) }, problems };
}

/** Reads every `*.yaml`/`*.yml` of a specs folder, in name order; `display` prefixes messages. */
export async function loadSpecsDir(dir: string, display = dir, notice: (text: string) => void = () => undefined): Promise<LoadedSpecs> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOTDIR" && /\.ya?ml$/.test(dir)) {
      const folder = dirname(display);
      throw new HashapiError(`"${display}" is a spec file; hashapi reads the whole specs folder: \`hashapi generate ${folder}\``);
    }
    const reason = error.code === "ENOENT" ? "does not exist" : error.code === "ENOTDIR" ? "is not a folder" : `cannot be read (${error.code})`;
    throw new HashapiError(`specs folder "${display}" ${reason}${error.code === "ENOENT" ? `; create one with \`hashapi init ${display}\`` : ""}`);
  });
  const specFiles = entries.filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name)).map((entry) => entry.name).sort();
  // Anything else is not read: say so, so a misnamed spec (patient.yml.txt, a subfolder) is noticed.
  const ignored = entries.filter((entry) => !specFiles.includes(entry.name) && !entry.name.startsWith(".")).map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
  if (ignored.length > 0) notice(`notice: ${display}/ also holds ${ignored.join(", ")}: not read (specs are the *.yaml and *.yml files directly in the folder)`);

  if (!specFiles.some((name) => name !== projectFileName)) {
    throw new HashapiError(`specs folder "${display}" holds no resource spec (*.yaml); add one with \`hashapi add-resource <name> --specs ${display}\``);
  }
  const result: LoadedSpecs = { project: null, resources: [], problems: [] };
  // Read synchronously (one read each, not four thread-pool round trips: see format-reuse.ts), parsed in name order.
  const texts = specFiles.map((name) => readFileSync(join(dir, name), "utf8"));
  const parsed = new Map<string, ReturnType<typeof SpecSource.parse>>();
  for (const [index, name] of specFiles.entries()) {
    const { loaded, problems } = parseDirFile(`${display}/${name}`, texts[index]!, parsed);
    result.problems.push(...problems);
    if (problems.length > 0) {
      if (loaded.unreadableName) (result.unreadableNames ??= []).push(loaded.unreadableName);
      continue;
    }
    if (name === projectFileName) result.project = loaded;
    else result.resources.push(loaded);
  }
  lastParsed = parsed;
  return result;
}
