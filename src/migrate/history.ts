import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { HashapiError } from "../errors.js";

export const migrationsDir = "prisma/migrations";
export const snapshotFile = "schema.snapshot";
export const lockFile = "migration_lock.toml";
/** `deploy: rolling`: the contract step of a migration, applied by `npm run db:contract` (expand-contract.ts). */
export const contractFile = "contract.sql";

export interface MigrationHistory {
  /** Folder names, in order: `0001_init`, `0002_add_phone`, … */
  folders: string[];
  latestSnapshot: string | null;
  lockedProvider: string | null;
}

/** Reads what earlier runs wrote under `prisma/migrations` of an output directory. */
export async function readMigrationHistory(outDir: string): Promise<MigrationHistory> {
  const root = join(outDir, migrationsDir);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const folders = entries
    .filter((entry) => entry.isDirectory() && /^\d{4,}_/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  const lock = await readFile(join(root, lockFile), "utf8").catch(() => null);
  const lockedProvider = lock?.match(/^provider\s*=\s*"([^"]+)"/m)?.[1] ?? null;
  const latest = folders.at(-1);
  if (latest === undefined) return { folders, latestSnapshot: null, lockedProvider };
  const snapshotPath = join(migrationsDir, latest, snapshotFile);
  const latestSnapshot = await readFile(join(outDir, snapshotPath), "utf8").catch(() => {
    throw new HashapiError(
      `${snapshotPath} is missing: hashapi cannot tell which schema the migrations already cover.\n` +
        `Restore it from version control (each migration hashapi writes keeps a copy of the schema it migrates to).`,
    );
  });
  return { folders, latestSnapshot, lockedProvider };
}
