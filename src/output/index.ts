export type { FileMap, OutputFile, Ownership } from "./types.js";
export { createFileMap } from "./file-map.js";
export { formatFiles, prettierOptions } from "./format.js";
export { addManifest, manifestPath, parseManifest, sha256, type Manifest } from "./manifest.js";
export { planChanges, type Change, type ChangeSet } from "./plan.js";
export { previewOutput, writeOutput, type WriteOptions } from "./write.js";
export { checkOutput, isClean, type DriftReport } from "./check.js";
export { formatChangeSet, formatDriftReport } from "./report.js";
