import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { repo } from "../support/service.js";

/**
 * The README a user reads on the registry and in node_modules/hashapi: every relative link in it
 * must point at a file the published package holds (issue 21), and the project's docs cite nothing
 * outside the repository.
 */
describe("the published package", () => {
  it("holds every file the README links to", async () => {
    const { stdout } = await execa("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repo });
    const files = new Set((JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path));
    const { readFile } = await import("node:fs/promises");
    for (const readme of ["README.md", "docs/spec-format.md", "docs/api-contract.md", "bench/README.md"]) {
      expect(files, readme).toContain(readme);
      const text = await readFile(`${repo}/${readme}`, "utf8");
      const folder = readme.includes("/") ? readme.slice(0, readme.lastIndexOf("/") + 1) : "";
      const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!).filter((link) => !/^[a-z]+:/i.test(link));
      for (const link of links) {
        const path = new URL(link, `file:///${folder}`).pathname.slice(1).replace(/\/$/, "");
        const present = files.has(path) || [...files].some((file) => file.startsWith(`${path}/`));
        expect(present, `${readme} links ${link}, which the package lacks`).toBe(true);
      }
    }
  }, 60_000);
});
