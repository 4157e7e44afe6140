import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The relative imports (and re-exports) between the TypeScript files under `roots`, type-only ones
 * included: a type that must be imported back up is a type living in the wrong place. The runtime
 * is one folder in a project but three here: an import not beside its importer is looked up in
 * common/, then sqlite/ (vitest.config.ts resolves it the same way).
 */
export function importGraph(repo: string, roots: readonly string[]): Map<string, string[]> {
  const runtime = join(repo, "runtime");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith(".ts")) files.push(path);
    }
  };
  for (const root of roots) walk(join(repo, root));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imports: string[] = [];
    for (const match of readFileSync(file, "utf8").matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+["'](\.[^"']+)["']/g)) {
      let target = resolve(dirname(file), match[1]!).replace(/\.js$/, ".ts");
      if (!existsSync(target) && file.startsWith(runtime)) {
        const inProject = relative(runtime, target).split("/").slice(1).join("/");
        target = [join(runtime, "common", inProject), join(runtime, "sqlite", inProject)].find((path) => existsSync(path)) ?? target;
      }
      if (existsSync(target)) imports.push(relative(repo, target));
    }
    graph.set(relative(repo, file), imports);
  }
  return graph;
}

/** The graph's circles: each set of files that reach one another (Tarjan's strongly connected components of two or more). */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return circles;
}

/**
 * The imports that go up: from a file to one of a higher layer (a lower rank; `rankOf` gives each
 * file's, undefined for a file outside every layer, which is reported too), as "from → to".
 */
export function arrowsUp(graph: ReadonlyMap<string, readonly string[]>, rankOf: (file: string) => number | undefined): string[] {
  const up: string[] = [];
  for (const [file, imports] of graph) {
    const rank = rankOf(file);
    for (const target of imports) {
      const targetRank = rankOf(target);
      if (rank === undefined || targetRank === undefined || targetRank < rank) up.push(`${file} → ${target}`);
    }
  }
  return up.sort();
}

/** A rank for each file by its first folder under one of `roots`, from the layers listed top first. */
export function layerRanks(roots: readonly string[], layers: readonly (readonly string[])[]): (file: string) => number | undefined {
  return (file) => {
    const root = roots.find((prefix) => file.startsWith(`${prefix}/`));
    if (root === undefined) return undefined;
    const first = file.slice(root.length + 1).split("/")[0]!;
    const rank = layers.findIndex((layer) => layer.includes(first));
    return rank === -1 ? undefined : rank;
  };
}
