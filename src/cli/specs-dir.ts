import { existsSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parse } from "yaml";
import { HashapiError } from "../errors.js";
import { manifestPath as manifestFile } from "../output/manifest.js";
import { notice } from "./style.js";

/** How far up from a generated project its specs folder is looked for. */
const searchDepth = 5;

/**
 * The specs folder a command works on: as given, unless that is the default `specs` and the command
 * runs inside a project hashapi generated (its README suggests `npx hashapi generate` there). Then
 * the folder it was generated from is found through its manifest: the specs folder of that name in
 * a parent folder whose `out:` is this one. Anything else is an error that says where to run.
 */
export function findSpecsDir(requested: string, defaulted = requested === "specs", cwd = process.cwd()): string {
  if (!defaulted || existsSync(join(cwd, requested))) return requested;
  const manifestPath = join(cwd, manifestFile);
  if (!existsSync(manifestPath)) return requested;
  const label = specsLabel(manifestPath);
  const here = realpathSync(cwd);
  let folder = dirname(here);
  for (let depth = 0; depth < searchDepth; depth += 1) {
    const candidate = join(folder, label);
    if (existsSync(candidate) && outputOf(candidate) === here) {
      const found = relative(cwd, candidate);
      notice(`reading the specs in ${found}/ (this project was generated from them)`);
      return found;
    }
    if (dirname(folder) === folder) break;
    folder = dirname(folder);
  }
  throw new HashapiError(
    `this folder is a project hashapi generated from "${label}/", and no "${label}/" in the folders above it generates into it:\n` +
      `run hashapi from the folder that holds ${label}/, or name it (e.g. \`hashapi generate ../${label}\`)`,
  );
}

/** The specs folder's name as the manifest recorded it (`specs/` → `specs`). */
function specsLabel(manifestPath: string): string {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { files?: Record<string, { source?: string }> };
    const source = Object.values(manifest.files ?? {}).find((file) => typeof file.source === "string")?.source;
    if (source) return basename(source.replace(/\/+$/, ""));
  } catch {
    // An unreadable manifest names no folder: the default name is the best guess.
  }
  return "specs";
}

/** The real path of the folder a specs folder generates into (`out:` of its hashapi.yaml, default generated/). */
function outputOf(specsDir: string): string | undefined {
  let out = "generated";
  const projectFile = join(specsDir, "hashapi.yaml");
  if (existsSync(projectFile)) {
    try {
      const configured = (parse(readFileSync(projectFile, "utf8")) as { out?: unknown } | null)?.out;
      if (typeof configured === "string") out = configured;
    } catch {
      return undefined;
    }
  }
  const target = resolve(dirname(specsDir), out);
  return existsSync(target) ? realpathSync(target) : undefined;
}
