import { relative } from "node:path";
import { prismaSchemaFile } from "../emit/index.js";
import { readMigrationHistory } from "../migrate/history.js";
import { assertSameProvider, assessMigration, planMigration, schemaAheadOfMigrations, type MigrationPlan } from "../migrate/plan.js";
import type { RiskyChange } from "../migrate/changes.js";
import { writeMigrationFiles } from "../migrate/write.js";
import type { ProjectModel } from "../model/types.js";
import { checkOutput, createFileMap, isClean, previewOutput, writeOutput, type ChangeSet, type DriftReport, type FileMap } from "../output/index.js";
import { confirmedClean, recordClean, specsFingerprint, type CleanRecord } from "./clean-record.js";
import { dependencyChanges, packageJsonOnDisk } from "./dependencies.js";
import { loadModel, portablePath, renderModel, specsLabel } from "./generate.js";
import { outputDir } from "./output-dir.js";

export { describeRiskyChanges } from "../migrate/refusals.js";
export type { MigrationPlan, RiskyChange };

/*
 * The whole of a generation, spec → model → files + migration plan → write or check, for the CLI to
 * call and print: nothing here writes to stdout or parses an argument.
 */

export interface ProjectOptions {
  /** `--out`, else the `out:` of hashapi.yaml. */
  out?: string;
  /** `--migration-name`: the label of the migration written when the schema changed. */
  migrationName?: string;
  acceptDataLoss?: boolean;
  /** Notices met on the way (a spec warning, say). */
  notice?: (text: string) => void;
  /** Reports a long step while it runs (the CLI's `step`); by default the work is simply awaited. */
  progress?: <T>(label: string, work: Promise<T>) => Promise<T>;
}

const quietly = <T>(_label: string, work: Promise<T>) => work;

/** What every mode starts from: the model, where its project is, and the migrations written so far. */
async function open(specsDir: string, options: ProjectOptions) {
  const progress = options.progress ?? quietly;
  // Taken before the specs are read: see clean-record.ts.
  const label = specsLabel(portablePath(specsDir));
  const run = { specsDir, label, outFlag: options.out, specsBefore: specsFingerprint(specsDir, label) };
  const notices: string[] = [];
  const notice = (text: string) => {
    notices.push(text);
    options.notice?.(text);
  };
  const model = await progress("reading and validating the specs", loadModel(specsDir, notice));
  const out = outputDir(specsDir, options.out, model.out);
  const history = await readMigrationHistory(out);
  assertSameProvider(history, model.database.provider);
  const schema = prismaSchemaFile(model).content;
  // Files read from `out` while formatting, not read again by the check or the write.
  const reads = new Map<string, string>();
  // Prisma's diff (a second process, ≈ 1.5 s) runs while this one renders and formats.
  const planNext = (acceptDataLoss: boolean) => {
    const plan = progress("computing the migration (prisma migrate diff)", planMigration({ history, schema, provider: model.database.provider, label: options.migrationName, source: model.source, evolution: model.evolution, acceptDataLoss, rolling: model.deploy === "rolling" }));
    plan.catch(() => undefined); // awaited later; meanwhile a refusal must not be "unhandled"
    return plan;
  };
  const render = () => progress("rendering and formatting the project", renderModel(model, { previousOutput: out, reads }));
  const recordCleanOutput = (map: FileMap) => recordClean(run, out, map, notices);
  return { model, out, history, schema, reads, planNext, render, recordCleanOutput };
}

/**
 * The record of the last clean run (clean-record.ts) when it still holds for these specs: its
 * notices said again, as the run it stands for would say them. Never under `--typecheck`, which
 * needs the rendered files.
 */
async function stillClean(specsDir: string, options: ProjectOptions): Promise<(CleanRecord & { display: string }) | undefined> {
  const progress = options.progress ?? quietly;
  const label = specsLabel(portablePath(specsDir));
  const confirming = Promise.resolve().then(() => confirmedClean(specsDir, label, options.out));
  const record = await progress("comparing with the record of the last clean run", confirming);
  if (record === undefined) return undefined;
  for (const text of record.notices) options.notice?.(text);
  const display = options.out !== undefined ? portablePath(options.out) : relative(process.cwd(), record.out) || ".";
  return { ...record, display };
}

const noDrift = (): DriftReport => ({ missing: [], changed: [], orphaned: [], orphanedUser: [] });

export interface CheckResult {
  out: string;
  report: DriftReport;
  /** The schema has changes no migration covers. */
  migrationPending: boolean;
  /** What that migration would do to stored rows (it would need --accept-data-loss). */
  risky: RiskyChange[];
}

/** `--check`: drift of the files, and whether the schema is ahead of the migrations (and how risky). */
export async function checkProject(specsDir: string, options: ProjectOptions = {}): Promise<CheckResult> {
  const clean = await stillClean(specsDir, options);
  if (clean) return { out: clean.display, report: noDrift(), migrationPending: false, risky: [] };
  const { model, out, history, schema, reads, render, recordCleanOutput } = await open(specsDir, options);
  const map = await render();
  const report = await checkOutput(out, map, reads);
  const migrationPending = schemaAheadOfMigrations(history, schema);
  if (isClean(report) && !migrationPending) recordCleanOutput(map);
  const risky = migrationPending ? assessMigration(history.latestSnapshot, schema, model.database.provider, model.evolution).assessment.risky : [];
  return { out, report, migrationPending, risky };
}

export interface PreviewResult {
  out: string;
  changes: ChangeSet;
  /** The migration a write would add, planned as if consent to data loss were given. */
  plan: MigrationPlan;
  dependenciesChanged: string[];
}

/** `--dry-run`: what writing would change, and the migration it would write. */
export async function previewProject(specsDir: string, options: ProjectOptions & { force?: boolean } = {}): Promise<PreviewResult> {
  const { out, reads, planNext, render } = await open(specsDir, options);
  const migration = planNext(true);
  const map = await render();
  const plan = await migration;
  const changes = await previewOutput(out, createFileMap([...map.values(), ...plan.files]), { force: options.force ?? false, reads });
  return { out, changes, plan, dependenciesChanged: dependencyChanges(packageJsonOnDisk(out), map.get("package.json")?.content ?? "") };
}

export interface WriteResult {
  out: string;
  /** Absent when a clean run's record stood in for rendering (nothing was written). */
  model?: ProjectModel;
  /** The project's files as rendered (without the migration), for a type check; empty when a clean run's record stood in. */
  files: FileMap;
  changes: ChangeSet;
  plan: MigrationPlan;
  dependenciesChanged: string[];
}

/** The real run: writes what changed and the next migration (refused on data loss without consent). */
export async function writeProject(specsDir: string, options: ProjectOptions & { force?: boolean; pruneCustom?: boolean; render?: boolean } = {}): Promise<WriteResult> {
  const clean = options.render ? undefined : await stillClean(specsDir, options);
  if (clean) {
    const changes: ChangeSet = Object.keys(clean.files).map((path) => ({ kind: "unchanged", path }));
    return { out: clean.display, files: createFileMap([]), changes, plan: { files: [], sql: "", risky: [] }, dependenciesChanged: [] };
  }
  const { model, out, reads, planNext, render, recordCleanOutput } = await open(specsDir, options);
  const migration = planNext(options.acceptDataLoss === true);
  const files = await render();
  const plan = await migration;
  const full = createFileMap([...files.values(), ...plan.files]);
  const packageBefore = packageJsonOnDisk(out);
  const progress = options.progress ?? quietly;
  const changes = await progress("writing the files that changed", writeOutput(out, full, { force: options.force ?? false, reads, pruneCustom: options.pruneCustom ?? false }));
  recordCleanOutput(full);
  return { out, model, files, changes, plan, dependenciesChanged: dependencyChanges(packageBefore, full.get("package.json")?.content ?? "") };
}

/** `hashapi migrate`: the next migration only; the paths written (none when the migrations cover the schema). */
export async function writeNextMigration(specsDir: string, options: ProjectOptions = {}): Promise<string[]> {
  const { out, planNext } = await open(specsDir, options);
  const { files } = await planNext(options.acceptDataLoss === true);
  if (files.length > 0) await writeMigrationFiles(out, files);
  return files.map((file) => file.path);
}
