import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { portablePath } from "./generate.js";

/**
 * Where a command reads and writes the generated project: `--out` as typed (relative to the working
 * directory), else hashapi.yaml's `out:` next to the specs folder (`specs/` + `out: api` → `api/`),
 * so every command finds the same folder from wherever it runs. Shown relative to the working
 * directory, as a user would type it.
 */
export function outputDir(specsDir: string, flag: string | undefined, configured: string): string {
  if (flag !== undefined) return portablePath(flag);
  const target = isAbsolute(configured) ? configured : join(dirname(resolve(portablePath(specsDir))), configured);
  return relative(process.cwd(), target) || ".";
}
