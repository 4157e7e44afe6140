import { createFileMap } from "./file-map.js";
import { formatJobs } from "./format-jobs.js";
import { parserFor } from "./format-options.js";
import { reusableContents } from "./format-reuse.js";
import { isLaidOut } from "./laid-out.js";
import { sha256 } from "./hash.js";
import type { FileMap, OutputFile } from "./types.js";

export interface FormatOptions {
  /**
   * The output directory of an earlier generation: files there that formatting again would only
   * reproduce are taken as they are (see format-reuse.ts). The result is the same bytes either way.
   */
  previousOutput?: string;
  /** Threads to format on; 0 formats in this thread. By default, what the number of files and cores warrant. */
  workers?: number;
  /** Filled with the files read from `previousOutput` (path → content), so that a check or write later in the same run need not read them again. */
  reads?: Map<string, string>;
}

/**
 * Formats every file prettier has a parser for (migrations are history and stay as rendered; a file
 * its template already laid out as prettier would, see laid-out.ts, is taken as it is), and marks the
 * formatted generated ones with the hash of their rendered text, for the manifest.
 */
export async function formatFiles(map: FileMap, options: FormatOptions = {}): Promise<FileMap> {
  const formattable: OutputFile[] = [];
  const asRendered: OutputFile[] = [];
  for (const file of map.values()) {
    if (file.ownership === "migration" || file.verbatim || parserFor(file.path) === undefined || (file.laidOut && isLaidOut(file.path, file.content))) asRendered.push(file);
    else formattable.push(file.ownership === "generated" ? { ...file, renderSha256: sha256(file.content) } : file);
  }
  const contents = options.previousOutput === undefined ? new Map<string, string>() : await reusableContents(options.previousOutput, formattable, options.reads);
  const toFormat = formattable.filter((file) => !contents.has(file.path));
  const formatted = await formatJobs(
    toFormat.map((file) => ({ path: file.path, content: file.content, parser: parserFor(file.path)! })),
    options.workers,
  );
  toFormat.forEach((file, index) => contents.set(file.path, formatted[index]!));
  return createFileMap([...asRendered, ...formattable.map((file) => ({ ...file, content: contents.get(file.path)! }))]);
}
