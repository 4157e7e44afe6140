import { UsageError } from "../errors.js";
import { singularize } from "./singularize.js";

/**
 * Accepts the ways people name a resource on a command line — `patients`, `Patient`,
 * `medical-records`, `medical_record` — and returns the PascalCase singular class name.
 */
export function resourceClassName(input: string): string {
  const words = input
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter(Boolean);
  if (words.length === 0 || !words.every((word) => /^[A-Za-z][A-Za-z0-9]*$/.test(word))) {
    throw new UsageError(
      `"${input}" is not a resource name: use letters and digits, e.g. "patients", "Patient" or "medical-records"`,
    );
  }
  const last = words.length - 1;
  words[last] = singularize(words[last]!.toLowerCase());
  return words.map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase()).join("");
}
