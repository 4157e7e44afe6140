import type { SpecSource } from "./source.js";
import type { FieldSpec, Problem } from "./types.js";

/** A file's size limit when its spec gives none, in kilobytes (10 MB). */
export const defaultFileMaxKb = 10_240;
/** The largest `max` a file field may have, in kilobytes: its size is stored as a 32-bit integer of bytes. */
export const largestFileMaxKb = 2_097_151;

/**
 * Checks of a `type: file` field the JSON Schema cannot express (spec-format "Files"): where a
 * file may be (a resource's own field: not a link's pivot, not a user field), that it is
 * nullable (a record is made first, its file attached by the same request or a later one: seeds
 * and the generated tests make records without files), its size bounds, and that dimensions go with image.
 */
export function checkFileField(source: SpecSource, at: (string | number)[], field: FieldSpec, place: "resource" | "pivot" | "user"): Problem[] {
  if (field.type !== "file") return [];
  if (place !== "resource")
    return [source.problem([...at, "type"], place === "pivot" ? "a link's pivot cannot hold a file: give the file to a resource of its own" : "a user field cannot be a file: give users' files to a resource that belongs to the user")];
  const problems: Problem[] = [];
  if (field.nullable !== true)
    problems.push(source.problem(at, "a file field must be nullable: true: records are made without their file (seed data, the generated tests) and get it from an upload"));
  for (const option of ["max", "min"] as const) {
    const value = field[option];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1 || value > largestFileMaxKb)
      problems.push(source.problem([...at, option], `a file's ${option} is a whole number of kilobytes from 1 to ${largestFileMaxKb} (2 GB)`));
  }
  if (field.dimensions !== undefined && field.image !== true)
    problems.push(source.problem([...at, "dimensions"], "dimensions apply to images: add image: true"));
  return problems;
}
