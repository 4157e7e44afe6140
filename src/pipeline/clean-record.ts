import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { sha256 } from "../output/hash.js";
import type { FileMap } from "../output/types.js";

const require = createRequire(import.meta.url);

/*
 * What the last run left clean, so that an unchanged `generate` or a `--check` with the same inputs
 * confirms it without rendering: reading every spec, the migrations and each output file's hash
 * costs ≈ 40 ms at 100 resources, where parsing, modelling and rendering cost ≈ 0.3 s.
 *
 * A record is trusted only as far as it is checked. Its fingerprint covers every input a run reads:
 * the specs folder (every name, every YAML text, its label), the migrations on disk, this build of
 * hashapi (dist/build-id.txt: its code, templates, runtime and spec schemas), the versions of the
 * libraries that shape the bytes, and Node's. Then every file it lists must still hash as recorded (generated) or
 * exist (yours). Anything else, and the run renders as it always did. Records live in the system's
 * temporary folder, never in the project (`--check` writes nothing there); none exists on a fresh
 * CI checkout, where every run renders.
 */

export interface CleanRecord {
  /** The absolute output folder the run wrote or checked. */
  out: string;
  /** Output path → sha256 of a generated file, or null for a file of yours (only its presence counts). */
  files: Record<string, string | null>;
  /** Notices the run printed (spec warnings), printed again when the record stands in for it. */
  notices: string[];
}

interface StoredRecord extends CleanRecord {
  version: 1;
  fingerprint: string;
}

const shapingLibraries = ["prettier", "yaml", "handlebars", "@prisma/schema-engine-wasm"];

function buildId(): string | undefined {
  try {
    return readFileSync(new URL("../build-id.txt", import.meta.url), "utf8").trim();
  } catch {
    // Running from the sources (tests): there is no build to name, so nothing is recorded.
    return undefined;
  }
}

function libraryVersions(): string {
  return shapingLibraries.map((name) => `${name}@${packageVersion(name)}`).join(",");
}

/** A package's version, from the package.json above its entry point (not every package exports it). */
function packageVersion(name: string): string {
  let dir = dirname(require.resolve(name));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const { name: found, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
      if (found === name && version !== undefined) return version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json for ${name}`);
    dir = parent;
  }
}

/** Every file under `dir`, with its bytes' hash, sorted; empty when `dir` does not exist. */
function treeHashes(dir: string): string {
  if (!existsSync(dir)) return "";
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .map((path) => `${path.slice(dir.length)} ${sha256(readFileSync(path))}`)
    .join("\n");
}

/** The specs folder as a run reads it: every entry's name, and the text of each YAML file. */
function specsHash(specsDir: string, label: string): string {
  const hash = createHash("sha256").update(`${label}\n`);
  for (const entry of readdirSync(specsDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    hash.update(`${entry.name}\n`);
    if (entry.isFile() && /\.ya?ml$/.test(entry.name)) hash.update(readFileSync(join(specsDir, entry.name))).update("\n");
  }
  return hash.digest("hex");
}

/**
 * What a run reads from `specsDir`, and which build reads it: taken before the run reads the specs
 * and again after, a run is recorded only when both agree (a save in between is another input).
 * Undefined when there is no build to name.
 */
export function specsFingerprint(specsDir: string, label: string): string | undefined {
  const build = buildId();
  if (build === undefined) return undefined;
  try {
    return sha256(`${build}\n${libraryVersions()}\n${process.version}\n${specsHash(specsDir, label)}`);
  } catch {
    return undefined;
  }
}

/** The inputs of a run into `out`: the specs' fingerprint and the migrations already there. */
function runFingerprint(specs: string, out: string): string {
  return sha256(`${specs}\n${treeHashes(join(out, "prisma/migrations"))}`);
}

const recordsDir = join(tmpdir(), "hashapi-clean-runs");
// Records not confirmed or written for this long are removed when another is written.
const recordLifetimeMs = 14 * 86_400_000;

/**
 * Where the record of runs from `specsDir` into `--out` is kept: both resolved, as the same relative
 * `--out` from another folder is another output. Without `--out`, hashapi.yaml (a fingerprinted
 * input) places the output relative to the specs.
 */
function recordPath(specsDir: string, outFlag: string | undefined): string {
  const key = sha256(`${resolve(specsDir)}\n${outFlag === undefined ? "" : resolve(outFlag)}`).slice(0, 32);
  return join(recordsDir, `${key}.json`);
}

/**
 * The record of the last clean run from `specsDir`, when it still holds: same inputs (the
 * fingerprint, recomputed with the migrations of the output it names) and every file as recorded.
 */
export function confirmedClean(specsDir: string, label: string, outFlag: string | undefined): CleanRecord | undefined {
  let record: StoredRecord;
  try {
    record = JSON.parse(readFileSync(recordPath(specsDir, outFlag), "utf8")) as StoredRecord;
  } catch {
    return undefined;
  }
  const wellFormed = record.version === 1 && typeof record.out === "string" && typeof record.files === "object" && record.files !== null && Array.isArray(record.notices);
  if (!wellFormed || (outFlag !== undefined && resolve(outFlag) !== record.out)) return undefined;
  const specs = specsFingerprint(specsDir, label);
  try {
    if (specs === undefined || runFingerprint(specs, record.out) !== record.fingerprint) return undefined;
    for (const [path, hash] of Object.entries(record.files)) {
      const file = join(record.out, path);
      if (hash === null ? !existsSync(file) : sha256(readFileSync(file)) !== hash) return undefined;
    }
  } catch {
    return undefined;
  }
  touch(recordPath(specsDir, outFlag));
  return record;
}

/** A confirmed record is in use: it stays past removeStaleRecords' lifetime. */
function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Removed meanwhile by another run: it was confirmed all the same.
  }
}

/**
 * Records that `out` holds exactly `map` (and the migrations cover its schema) for the specs read
 * as `specsBefore`, unless they changed during the run. Never fails a run: a record that cannot be
 * written is simply not there next time.
 */
export function recordClean(run: { specsDir: string; label: string; outFlag: string | undefined; specsBefore: string | undefined }, out: string, map: FileMap, notices: string[]): void {
  const { specsDir, label, outFlag, specsBefore } = run;
  if (specsBefore === undefined || specsFingerprint(specsDir, label) !== specsBefore) return;
  const files: Record<string, string | null> = {};
  for (const file of map.values()) {
    if (file.ownership === "migration") continue;
    files[file.path] = file.ownership === "generated" ? sha256(file.content) : null;
  }
  const path = recordPath(specsDir, outFlag);
  try {
    const record: StoredRecord = { version: 1, fingerprint: runFingerprint(specsBefore, out), out: resolve(out), files, notices };
    mkdirSync(recordsDir, { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(record));
    renameSync(temporary, path);
    removeStaleRecords();
  } catch {
    // A read-only or full temporary folder: the next run renders, as without a record.
  }
}

/** Records of outputs nobody generated or checked for two weeks: the folder does not grow for ever. */
function removeStaleRecords(): void {
  const oldest = Date.now() - recordLifetimeMs;
  for (const name of readdirSync(recordsDir)) {
    const path = join(recordsDir, name);
    if (statSync(path).mtimeMs < oldest) rmSync(path, { force: true });
  }
}
