import { linkSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { OutputFile } from "../output/types.js";

/**
 * Writes new migration files, each whole or not at all: written under a temporary name, then linked
 * to its own, which fails on an existing file rather than rewriting it. A dev server watching the
 * folder (`npm run dev` applies each migration.sql that appears) never reads one half-written; it
 * once applied an empty file the generator had created but not yet filled, then refused it as
 * changed after it was applied.
 */
export async function writeMigrationFiles(outDir: string, files: OutputFile[]): Promise<void> {
  for (const file of files) {
    const target = join(outDir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    const temporary = join(dirname(target), `.${process.pid}.hashapi.tmp`);
    writeFileSync(temporary, file.content);
    try {
      linkSync(temporary, target);
    } finally {
      unlinkSync(temporary);
    }
  }
}
