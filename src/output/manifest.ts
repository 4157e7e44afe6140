import { HashapiError } from "../errors.js";
import { createFileMap } from "./file-map.js";
import { formatterFingerprint } from "./format-options.js";
import { sha256 } from "./hash.js";
import type { FileMap, OutputFile, Ownership } from "./types.js";

export const manifestPath = "hashapi.manifest.json";

export interface ManifestEntry {
  ownership: Exclude<Ownership, "migration">;
  source: string;
  sha256?: string;
  /** sha256 of the rendered text before formatting (see OutputFile.renderSha256). */
  renderSha256?: string;
}

export interface Manifest {
  generator: "hashapi";
  manifestVersion: 1;
  /** The formatter and options that made the formatted files; absent in manifests written before it was recorded. */
  formatter?: string;
  files: Record<string, ManifestEntry>;
}

/** Adds the manifest: generated files with their hash, user-owned files by name. Migrations are history. */
export function addManifest(map: FileMap): FileMap {
  const files: Record<string, ManifestEntry> = {};
  for (const file of map.values()) {
    if (file.ownership === "migration" || file.path === manifestPath) continue;
    files[file.path] = file.ownership === "generated" ? generatedEntry(file) : { ownership: "user", source: file.source };
  }
  const manifest: Manifest = { generator: "hashapi", manifestVersion: 1, formatter: formatterFingerprint, files };
  return createFileMap([
    ...[...map.values()].filter((file) => file.path !== manifestPath),
    { path: manifestPath, content: `${JSON.stringify(manifest, null, 2)}\n`, ownership: "generated", source: "hashapi" },
  ]);
}

function generatedEntry(file: OutputFile): ManifestEntry {
  const entry: ManifestEntry = { ownership: "generated", source: file.source, sha256: sha256(file.content) };
  if (file.renderSha256 !== undefined) entry.renderSha256 = file.renderSha256;
  return entry;
}

export function parseManifest(text: string, location: string): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HashapiError(`${location} is not valid JSON; restore it from version control or regenerate with --force.`);
  }
  const manifest = data as Partial<Manifest>;
  if (manifest.generator !== "hashapi" || manifest.manifestVersion !== 1 || typeof manifest.files !== "object" || manifest.files === null) {
    throw new HashapiError(`${location} is not a hashapi manifest (version 1); restore it from version control or regenerate with --force.`);
  }
  return manifest as Manifest;
}
