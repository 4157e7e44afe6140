import { distance } from "fastest-levenshtein";
import type { Problem } from "./types.js";

export function formatProblem(problem: Problem): string {
  const path = problem.path === "" ? "" : ` ${problem.path}:`;
  return `${problem.file}:${problem.line}:${problem.column}${path} ${problem.message}`;
}

/** ` (did you mean "max"?)` when a candidate is close enough to be a likely typo, else "". */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const score = distance(input.toLowerCase(), candidate.toLowerCase());
    if (score < bestDistance) [best, bestDistance] = [candidate, score];
  }
  const tolerance = Math.max(1, Math.ceil(input.length / 3));
  return best !== undefined && bestDistance <= tolerance ? ` (did you mean "${best}"?)` : "";
}

export function formatPath(path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (text, segment) => (typeof segment === "number" ? `${text}[${segment}]` : text === "" ? segment : `${text}.${segment}`),
    "",
  );
}

export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort(
    (left, right) => left.file.localeCompare(right.file) || left.line - right.line || left.column - right.column || left.message.localeCompare(right.message),
  );
}
