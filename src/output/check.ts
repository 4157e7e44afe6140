import { readDiskState } from "./disk.js";
import type { FileMap } from "./types.js";

export interface DriftReport {
  missing: string[];
  changed: { path: string; diff: string }[];
  orphaned: string[];
  /** User-owned files whose resource or job is gone (see ChangeKind "orphan-user"). */
  orphanedUser: string[];
}

/**
 * Compares what generation would write with what is on disk. The content of user-owned and
 * migration files is not drift (they are the user's, or history); only their absence is.
 */
export async function checkOutput(outDir: string, map: FileMap, reads?: ReadonlyMap<string, string>): Promise<DriftReport> {
  const disk = await readDiskState(outDir, map, reads);
  const report: DriftReport = { missing: [], changed: [], orphaned: [], orphanedUser: [] };
  const drifted: { path: string; current: string; content: string }[] = [];
  for (const file of map.values()) {
    const current = disk.contents.get(file.path);
    if (current === undefined) report.missing.push(file.path);
    else if (file.ownership === "generated" && current !== file.content) drifted.push({ path: file.path, current, content: file.content });
  }
  if (drifted.length > 0) {
    // Loaded only when there is drift to show: most checks find none.
    const { createTwoFilesPatch } = await import("diff");
    for (const { path, current, content } of drifted)
      report.changed.push({ path, diff: createTwoFilesPatch(`a/${path}`, `b/${path}`, current, content, "on disk", "generated", { context: 3 }) });
  }
  for (const [path, entry] of Object.entries(disk.manifest?.files ?? {})) {
    if (map.has(path) || !disk.contents.has(path)) continue;
    if (entry.ownership === "generated") report.orphaned.push(path);
    else if (entry.ownership === "user") report.orphanedUser.push(path);
  }
  return report;
}

export function isClean(report: DriftReport): boolean {
  return report.missing.length === 0 && report.changed.length === 0 && report.orphaned.length === 0 && report.orphanedUser.length === 0;
}
