export { loadSpecsDir, parseSpecFile, projectFileName, type LoadedFile, type LoadedSpecs } from "./load.js";
export { validateSpecs } from "./validate.js";
export { formatProblem, didYouMean } from "./problem.js";
export { parseRule, ruleTable, type ParsedRule } from "./rules.js";
export type * from "./types.js";
