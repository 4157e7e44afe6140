import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sourceKey } from "./build-cache.js";

/**
 * The end-to-end suites reuse a generated project's build when its sources are the same: the key
 * must change with every file the build reads, wherever it is (the runtime's src/data/ once went
 * unkeyed, named like the project's database folder, and a stale build hid a change), and not
 * with what it does not read (the databases in data/, the manifest, node_modules).
 */
describe("the e2e build cache's key", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function project(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "hashapi-build-key-"));
    dirs.push(dir);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(dir, path, ".."), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    return sourceKey(dir, []);
  }

  const base = { "src/data/table/reach.ts": "scoped", "src/server.ts": "serve", "package.json": "{}" };

  it("changes with a file of the runtime's own data folder, or any other source", async () => {
    const key = await project(base);
    expect(await project({ ...base, "src/data/table/reach.ts": "unscoped" })).not.toBe(key);
    expect(await project({ ...base, "src/server.ts": "serve!" })).not.toBe(key);
  });

  it("stays the same for the project's databases, its manifest, its dependencies and its build outputs", async () => {
    const key = await project(base);
    const unread = { "data/e2e.db": "rows", "hashapi.manifest.json": "{\"a\":1}", "node_modules/x/index.js": "x", "dist/server.js": "built" };
    expect(await project({ ...base, ...unread })).toBe(key);
  });
});
