import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { OutputFile } from "../output/types.js";

/** Writes new migration files; `wx` makes an existing file an error rather than a silent rewrite. */
export async function writeMigrationFiles(outDir: string, files: OutputFile[]): Promise<void> {
  for (const file of files) {
    const target = join(outDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content, { flag: "wx" });
  }
}
