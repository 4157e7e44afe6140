import type { DiskState } from "./disk.js";
import type { FileMap, OutputFile } from "./types.js";

/**
 * `orphan-user`: a user-owned file that no spec produces any more (its resource was removed) and
 * that would import deleted files; written only with --prune-custom, which deletes it.
 */
export type ChangeKind = "create" | "update" | "unchanged" | "keep-user" | "keep-migration" | "delete" | "orphan-user";

export interface Change {
  kind: ChangeKind;
  path: string;
  file?: OutputFile;
}

export type ChangeSet = Change[];

/**
 * What writing `map` over `disk` would do, decided without touching the disk. Only files that the
 * previous manifest lists as generated can be deleted; user and migration files are never
 * rewritten once they exist.
 */
export function planChanges(map: FileMap, disk: DiskState): ChangeSet {
  const changes: ChangeSet = [];
  for (const file of map.values()) {
    const current = disk.contents.get(file.path);
    if (current === undefined) changes.push({ kind: "create", path: file.path, file });
    else if (file.ownership === "user") changes.push({ kind: "keep-user", path: file.path, file });
    else if (file.ownership === "migration") changes.push({ kind: "keep-migration", path: file.path, file });
    else if (current === file.content) changes.push({ kind: "unchanged", path: file.path, file });
    else changes.push({ kind: "update", path: file.path, file });
  }
  for (const [path, entry] of Object.entries(disk.manifest?.files ?? {})) {
    if (map.has(path) || !disk.contents.has(path)) continue;
    if (entry.ownership === "generated") changes.push({ kind: "delete", path });
    else if (entry.ownership === "user") changes.push({ kind: "orphan-user", path });
  }
  return changes.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}
