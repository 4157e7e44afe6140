import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { DiagnosticCategory, Project, ts } from "ts-morph";
import type { FileMap } from "../output/types.js";

export interface TypeProblem {
  /** Path relative to the output directory. */
  file: string;
  line: number;
  column: number;
  message: string;
  userOwned: boolean;
}

/**
 * Type-checks a generated project without writing it: the file map's TypeScript is laid over the
 * output directory in memory, so what is checked is exactly what `generate` would write, next to the
 * user-owned files already on disk and the project's installed dependencies (node_modules and the
 * Prisma client that `prisma generate` wrote under src/prisma-client).
 */
export function typecheckProject(outDir: string, map: FileMap): TypeProblem[] {
  const root = resolve(outDir);
  const tsconfig = JSON.parse(map.get("tsconfig.json")?.content ?? "{}") as { compilerOptions?: object };
  // Named as the project's own tsconfig, so `types: ["node"]` resolves from the project's
  // node_modules/@types (and its parents), not from wherever hashapi was started.
  const { options } = ts.convertCompilerOptionsFromJson(tsconfig.compilerOptions ?? {}, root, join(root, "tsconfig.json"));
  const project = new Project({
    // Files created in memory get no package.json "type" lookup, so under NodeNext TypeScript would
    // take them for CommonJS and refuse import.meta and top-level await. The project is ESM: say so.
    compilerOptions: { ...options, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true },
    skipAddingFilesFromTsConfig: true,
  });

  const userOwned = new Set<string>();
  for (const file of map.values()) {
    // Resources' declarations (`<name>.resource.json`) are imported by their TypeScript: typed from it.
    if (!file.path.startsWith("src/") || !/\.(ts|json)$/.test(file.path)) continue;
    const absolute = join(root, file.path);
    // A user-owned file is checked as the user left it on disk; the map only holds its first version.
    const onDisk = file.ownership === "user" && existsSync(absolute) ? readFileSync(absolute, "utf8") : undefined;
    if (file.ownership === "user") userOwned.add(file.path);
    project.createSourceFile(absolute, onDisk ?? file.content, { overwrite: true });
  }

  return project
    .getPreEmitDiagnostics()
    .filter((diagnostic) => diagnostic.getCategory() === DiagnosticCategory.Error)
    .map((diagnostic) => {
      const sourceFile = diagnostic.getSourceFile();
      const path = sourceFile ? relative(root, sourceFile.getFilePath()).split(sep).join("/") : "(project)";
      const start = diagnostic.getStart();
      const position = sourceFile && start !== undefined ? sourceFile.getLineAndColumnAtPos(start) : { line: 0, column: 0 };
      return {
        file: path,
        line: position.line,
        column: position.column,
        message: ts.flattenDiagnosticMessageText(diagnostic.getMessageText() as string | ts.DiagnosticMessageChain, "\n"),
        userOwned: userOwned.has(path),
      };
    })
    .sort((left, right) => left.file.localeCompare(right.file) || left.line - right.line);
}

export function formatTypeProblem(problem: TypeProblem): string {
  const owner = problem.userOwned ? " (your file)" : "";
  return `${problem.file}:${problem.line}:${problem.column}${owner} ${problem.message}`;
}
