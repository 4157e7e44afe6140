import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pagePolicy, serveAdminPages } from "../../runtime/common/src/admin/admin-routes.js";

/** How the service serves the built admin (runtime admin/admin-routes.ts), over real HTTP. */
describe("the admin's pages as served", () => {
  let dir: string;
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    dir = `${await mkdtemp(join(tmpdir(), "admin-ui-"))}/`;
    await writeFile(join(dir, "index.html"), "<!doctype html><title>Admin</title>");
    await writeFile(join(dir, "app.js"), "console.log('admin')");
    await writeFile(join(dir, "app.js.gz"), gzipSync("console.log('admin')"));
    const app = express();
    serveAdminPages(app, "https://files.example.com", dir);
    const missing = express();
    serveAdminPages(missing, undefined, join(dir, "not-built/"));
    app.use("/unbuilt", missing);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });

  afterAll(async () => {
    close?.();
    await rm(dir, { recursive: true, force: true });
  });

  it("redirects /admin to /admin/, where relative addresses resolve, and serves the page there", async () => {
    const redirect = await fetch(`${base}/admin`, { redirect: "manual" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([301, "/admin/"]);
    const page = await fetch(`${base}/admin/`);
    expect([page.status, await page.text()]).toEqual([200, "<!doctype html><title>Admin</title>"]);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("sends the gzipped script to a browser that takes gzip, typed as a script, and the plain one otherwise", async () => {
    // fetch inflates what it receives: the header says it came gzipped.
    const gzipped = await fetch(`${base}/admin/app.js`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await gzipped.text()).toBe("console.log('admin')");
    const plain = await fetch(`${base}/admin/app.js`, { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe("console.log('admin')");
  });

  it("lets scripts, styles and requests come from the page's origin alone, and files from their bucket's", async () => {
    const policy = (await fetch(`${base}/admin/`)).headers.get("content-security-policy");
    expect(policy).toBe(pagePolicy("https://files.example.com"));
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self' https://files.example.com;");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(pagePolicy(undefined)).toContain("connect-src 'self';");
  });

  it("says how to build the pages when they are not built", async () => {
    const missing = await fetch(`${base}/unbuilt/admin/`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "The admin is not built: run `npm run build`." });
  });
});
