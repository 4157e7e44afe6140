import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

function parse(text: string | undefined): Manifest | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * What a regeneration changes in the project's package.json dependencies (a switch of database
 * trades better-sqlite3 for pg, say): one entry per package added, removed or given another version
 * range, sorted. Empty when there was no package.json before (the first run says `npm install`
 * anyway) or nothing changed.
 */
export function dependencyChanges(before: string | undefined, after: string): string[] {
  const old = parse(before);
  const next = parse(after);
  if (!old || !next) return [];
  const all = (manifest: Manifest) => ({ ...manifest.dependencies, ...manifest.devDependencies });
  const [was, now] = [all(old), all(next)];
  const changes: string[] = [];
  for (const name of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (!(name in was)) changes.push(`+${name}`);
    else if (!(name in now)) changes.push(`-${name}`);
    else if (was[name] !== now[name]) changes.push(`${name} ${was[name]} → ${now[name]}`);
  }
  return changes.sort((left, right) => left.replace(/^[+-]/, "").localeCompare(right.replace(/^[+-]/, "")));
}

/** The project's package.json as it is on disk now, if any. */
export function packageJsonOnDisk(out: string): string | undefined {
  const path = join(out, "package.json");
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}
