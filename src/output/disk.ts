import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { manifestPath, parseManifest, type Manifest } from "./manifest.js";
import type { FileMap } from "./types.js";

export interface DiskState {
  /** Whether the directory exists and holds anything at all. */
  nonEmpty: boolean;
  manifest: Manifest | null;
  /** Current content of every path the new map or the old manifest names; absent when missing. */
  contents: Map<string, string>;
}

/** Reads only what planning needs: the manifest and the files that the new or old output names. */
export async function readDiskState(outDir: string, map: FileMap, reads?: ReadonlyMap<string, string>): Promise<DiskState> {
  const entries = await readdir(outDir).catch(() => [] as string[]);
  const manifestText = readOptional(join(outDir, manifestPath));
  const manifest = manifestText === undefined ? null : parseManifest(manifestText, join(outDir, manifestPath));
  const paths = new Set([...map.keys(), ...Object.keys(manifest?.files ?? {})]);
  const contents = new Map<string, string>();
  for (const path of paths) {
    // Read earlier in this same run (format-reuse.ts): the same bytes, not read twice.
    const content = reads?.get(path) ?? readOptional(join(outDir, path));
    if (content !== undefined) contents.set(path, content);
  }
  return { nonEmpty: entries.length > 0, manifest, contents };
}

/** Synchronously, for the reason format-reuse.ts gives: one read per file, not four round trips. */
function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
