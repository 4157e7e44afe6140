import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatterFingerprint } from "./format-options.js";
import { sha256 } from "./hash.js";
import { manifestPath, parseManifest, type Manifest } from "./manifest.js";
import type { OutputFile } from "./types.js";

/**
 * The files of an earlier generation in `outDir` that can stand in for formatting these files again,
 * by path:
 * - a generated file, when the manifest says the same formatter made it from the same rendered text
 *   and the file still has the bytes the manifest lists (an edited or deleted file is formatted for
 *   real, so `--check` still reports it);
 * - a user-owned file that exists: hashapi never rewrites it, so a freshly formatted copy would be
 *   thrown away.
 * Anything unreadable, a corrupt manifest included, only means nothing is reused: the write or the
 * check that follows reports it.
 */
export async function reusableContents(outDir: string, files: OutputFile[], reads?: Map<string, string>): Promise<Map<string, string>> {
  const manifest = readManifest(outDir);
  const formattedBefore = manifest?.formatter === formatterFingerprint ? manifest.files : {};
  const reusable = new Map<string, string>();
  for (const file of files) {
    const entry = formattedBefore[file.path];
    const reuse =
      file.ownership === "user" ||
      (file.ownership === "generated" &&
        entry?.ownership === "generated" &&
        entry.renderSha256 !== undefined &&
        entry.renderSha256 === file.renderSha256);
    if (!reuse) continue;
    const onDisk = readOptional(join(outDir, file.path));
    if (onDisk === undefined) continue;
    reads?.set(file.path, onDisk);
    if (file.ownership === "user" || sha256(onDisk) === entry?.sha256) reusable.set(file.path, onDisk);
  }
  return reusable;
}

function readManifest(outDir: string): Manifest | null {
  const location = join(outDir, manifestPath);
  const text = readOptional(location);
  if (text === undefined) return null;
  try {
    return parseManifest(text, location);
  } catch {
    return null;
  }
}

/**
 * Read synchronously: every file is needed before anything can go on, and `fs/promises.readFile`
 * makes each read four thread-pool round trips (open, stat, read, close), ≈ 130 ms for the ~870
 * files of 100 resources against one read each.
 */
function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
