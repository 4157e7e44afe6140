import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join, relative } from "node:path";

/*
 * The end-to-end suites' builds of generated projects, shared between test files. Most files
 * prepare the same example on the same database, and `npm run build` (prisma generate, then tsc
 * for the service and for its client) is most of a preparation: about half a minute each on two
 * loaded cores, some thirty times a run. A build is keyed by the sha256 of every file it reads
 * (the project as generated, its own files included, without what the build writes), so a change
 * to the runtime, a template, a spec or a custom file is a new key and a new build; what a build
 * writes is then copied from the first one made from the same files. The one difference between
 * two preparations of the same project is the name of their specs folder (a process's own), which
 * every generated file's header comment names: `local` lists such names, left out of the key (a
 * copied build's comments name another process's folder; nothing reads them).
 * HASHAPI_E2E_BUILD_CACHE=0 builds every time.
 */

/** What `npm run build` writes in a generated project. */
const outputs = ["dist", "client/dist", "src/prisma-client"];
/** Folders and files, by name wherever they are, that the build neither reads nor writes. */
const skipped = new Set(["node_modules", ".e2e-build.lock"]);
/**
 * The same, by path from the project's root: its databases (`data/`; the runtime's own `src/data/`
 * is read by the build, and a key without it reused a build of other sources), and the manifest,
 * which lists each file's sha256 that the specs folder's name in each header changes.
 */
const skippedAtRoot = new Set(["data", "hashapi.manifest.json"]);
const cacheRoot = (repo: string) => join(repo, ".tmp", "e2e-builds");
/** Entries older than this are removed when a new one is stored. */
const keptMs = 24 * 3_600_000;

/** Builds the project at `dir` with `build`, or copies the outputs of an earlier build of the same files. */
export async function buildOnce(repo: string, dir: string, local: readonly string[], build: () => Promise<void>): Promise<void> {
  if (process.env.HASHAPI_E2E_BUILD_CACHE === "0") return build();
  const key = await sourceKey(dir, local);
  const cached = join(cacheRoot(repo), key);
  if (existsSync(join(cached, "complete"))) {
    for (const output of outputs) {
      await rm(join(dir, output), { recursive: true, force: true });
      if (existsSync(join(cached, output))) await cp(join(cached, output), join(dir, output), { recursive: true });
    }
    return;
  }
  await build();
  await store(repo, dir, cached);
}

/** The sha256 of every file under `dir` but the build's outputs, path and content (`local` names left out), in path order. */
export async function sourceKey(dir: string, local: readonly string[]): Promise<string> {
  const hash = createHash("sha256");
  for (const path of await sourceFiles(dir, dir)) {
    let content = await readFile(join(dir, path), "latin1");
    for (const name of local) content = content.replaceAll(name, "\u0000local\u0000");
    hash.update(`${path}\0${content}\0`, "latin1");
  }
  return hash.digest("hex").slice(0, 32);
}

async function sourceFiles(root: string, folder: string): Promise<string[]> {
  const files: string[] = [];
  const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    const inProject = relative(root, path);
    if (skipped.has(entry.name) || skippedAtRoot.has(inProject) || outputs.includes(inProject)) continue;
    if (entry.isDirectory()) files.push(...(await sourceFiles(root, path)));
    else if (entry.isFile()) files.push(inProject);
  }
  return files;
}

/** Copies the outputs into the cache under a name of this process's, then renames it into place (whole or not at all). */
async function store(repo: string, dir: string, cached: string): Promise<void> {
  const staging = `${cached}.${process.pid}.staging`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  for (const output of outputs)
    if (existsSync(join(dir, output))) await cp(join(dir, output), join(staging, output), { recursive: true });
  await mkdir(join(staging, "complete"));
  // Another process may have stored the same build meanwhile: theirs is as good.
  await rename(staging, cached).catch(() => rm(staging, { recursive: true, force: true }));
  await removeStale(cacheRoot(repo));
}

async function removeStale(root: string): Promise<void> {
  for (const name of await readdir(root).catch(() => [])) {
    const path = join(root, name);
    const age = await stat(path).then((info) => Date.now() - info.mtimeMs, () => 0);
    if (age > keptMs) await rm(path, { recursive: true, force: true });
  }
}
