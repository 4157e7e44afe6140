import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { HashapiError } from "../errors.js";
import type { FileMap } from "../output/types.js";
import { formatTypeProblem, typecheckProject, type TypeProblem } from "./typecheck.js";

const run = promisify(execFile);

/**
 * `generate --typecheck`: refreshes the project's Prisma client (what its own build does first), then
 * type-checks the file map in memory against the user's files on disk. Needs the project's
 * dependencies installed, since the types of Express and Prisma come from there.
 */
export async function typecheckOutput(outDir: string, map: FileMap): Promise<TypeProblem[]> {
  const prisma = findBinary(outDir, "prisma");
  if (!prisma) {
    throw new HashapiError(`--typecheck needs the project's dependencies: run \`npm install\` in ${outDir} first`);
  }
  await run(prisma, ["generate"], { cwd: outDir, env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" } }).catch(
    (error: { stderr?: string }) => {
      throw new HashapiError(`prisma generate failed in ${outDir}:\n${error.stderr ?? ""}`);
    },
  );
  return typecheckProject(outDir, map);
}

export function describeTypeProblems(problems: TypeProblem[]): string {
  const mine = problems.filter((problem) => problem.userOwned).length;
  const hint =
    mine > 0
      ? "Your files under src/custom/ no longer fit the generated code: adapt them to the changed specs."
      : "The generated code does not type-check: this is a hashapi bug, please report it.";
  return `${problems.map(formatTypeProblem).join("\n")}\n${problems.length} type error${problems.length === 1 ? "" : "s"}. ${hint}\n`;
}

/** node_modules/.bin/<name> in the directory or any parent, as npm would resolve it. */
function findBinary(dir: string, name: string): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    const candidate = join(current, "node_modules", ".bin", name);
    if (existsSync(candidate)) return candidate;
    if (dirname(current) === current) return undefined;
  }
}
