export { generate, loadModel, loadValidSpecs, type GenerateOptions } from "./pipeline/generate.js";
export { buildModel } from "./model/build.js";
export type { ProjectModel, ResourceModel, FieldModel } from "./model/types.js";
export type { FileMap, OutputFile, Ownership } from "./output/types.js";
export { HashapiError, SpecError, UsageError } from "./errors.js";
