import { TemplateError } from "../errors.js";
import type { FileMap, OutputFile } from "./types.js";

export function createFileMap(files: Iterable<OutputFile>): FileMap {
  const sorted = [...files].sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  const map = new Map<string, OutputFile>();
  for (const file of sorted) {
    if (map.has(file.path)) throw new TemplateError(`two templates render to ${file.path}`);
    map.set(file.path, file);
  }
  return map;
}
