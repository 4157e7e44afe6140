import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { readdir, rm, rmdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { HashapiError } from "../errors.js";
import { readDiskState } from "./disk.js";
import { planChanges, type ChangeSet } from "./plan.js";
import type { FileMap } from "./types.js";

export interface WriteOptions {
  /** Write into a non-empty directory that has no hashapi manifest. */
  force: boolean;
  /** Files read earlier in this run (see FormatOptions.reads). */
  reads?: ReadonlyMap<string, string>;
  /** Delete user-owned files no spec produces any more, instead of refusing (`--prune-custom`). */
  pruneCustom?: boolean;
}

/** The changes writing would make, without making them (`--dry-run`). */
export async function previewOutput(outDir: string, map: FileMap, options: WriteOptions): Promise<ChangeSet> {
  const disk = await readDiskState(outDir, map, options.reads);
  assertOwnDirectory(outDir, disk.nonEmpty, disk.manifest !== null, options.force);
  return planChanges(map, disk);
}

/** Writes the changed files, deletes orphans, and leaves every unchanged file (and its mtime) alone. */
export async function writeOutput(outDir: string, map: FileMap, options: WriteOptions): Promise<ChangeSet> {
  const changes = await previewOutput(outDir, map, options);
  const orphans = changes.filter((change) => change.kind === "orphan-user").map((change) => change.path);
  if (orphans.length > 0 && !options.pruneCustom) throw new OrphanedUserFiles(orphans);
  const writes = changes.flatMap((change) =>
    (change.kind === "create" || change.kind === "update") && change.file ? [{ path: join(outDir, change.path), content: change.file.content }] : [],
  );
  // Synchronously, as files are read (format-reuse.ts): a promise write is three thread-pool round
  // trips (open, write, close) and a rename a fourth; 900 files took ≈ 1 s that way, ≈ 0.1 s so.
  for (const folder of new Set(writes.map((write) => dirname(write.path)))) mkdirSync(folder, { recursive: true });
  for (const write of writes) writeAtomically(write.path, write.content);
  for (const change of changes) {
    if (change.kind !== "delete" && change.kind !== "orphan-user") continue;
    await rm(join(outDir, change.path), { force: true });
    await removeEmptyParents(outDir, dirname(change.path));
  }
  return changes;
}

/** Your files of a resource whose spec is gone (they import deleted files: the project would not build) or of a job no longer declared. */
export class OrphanedUserFiles extends HashapiError {
  constructor(readonly paths: readonly string[]) {
    super(
      `These files of yours belong to resources no spec defines any more (they import files that generation removes) or to jobs hashapi.yaml no longer declares:\n` +
        `${paths.map((path) => `  ${path}`).join("\n")}\n` +
        "Nothing was written. Move what you want to keep elsewhere, then run again with --prune-custom to delete them\n" +
        "(or restore the spec if its removal was a mistake).",
    );
  }
}

function assertOwnDirectory(outDir: string, nonEmpty: boolean, hasManifest: boolean, force: boolean): void {
  if (nonEmpty && !hasManifest && !force) {
    throw new HashapiError(
      `refusing to write into "${outDir}": it is not empty and has no hashapi.manifest.json, so it is not a hashapi output; pass --force to write anyway (files hashapi does not generate are left alone)`,
    );
  }
}

function writeAtomically(path: string, content: string): void {
  // A crash mid-write must never leave a half-written source file behind.
  const temporary = `${path}.hashapi-${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
}

async function removeEmptyParents(outDir: string, relativeDir: string): Promise<void> {
  let current = relativeDir;
  while (current !== "." && current !== "") {
    const absolute = join(outDir, current);
    const entries = await readdir(absolute).catch(() => null);
    if (entries === null || entries.length > 0) return;
    await rmdir(absolute);
    current = dirname(current);
  }
}
