import type { SpecSource } from "./source.js";
import type { ResourceSpec } from "./types.js";

/** A resource file that passed its schema check, with where its text came from (for messages). */
export interface CheckedResource {
  spec: ResourceSpec;
  source: SpecSource;
}

/** The built-in users' resource name, which a belongsTo may point at. */
export const builtInUser = "User";
