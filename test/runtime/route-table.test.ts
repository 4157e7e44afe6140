import { createServer, type Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notFound, RouteTable } from "../../runtime/common/src/http/route-table.js";

describe("RouteTable.match (runtime/common/src/http/route-table.ts)", () => {
  const routes = new RouteTable()
    .add("/api/patients", { get: () => {} })
    .add("/api/patients/:hash", { get: () => {}, delete: () => {} })
    .add("/api/patients/:hash/restore", { post: () => {} })
    .add("/api/auth/me", { get: () => {} });

  it("matches literal segments case-insensitively and parameters as one decoded segment", () => {
    expect(routes.match("/api/patients")?.params).toEqual({});
    expect(routes.match("/API/Patients/PAT_AAAAAAAA")?.params).toEqual({ hash: "PAT_AAAAAAAA" });
    expect(routes.match("/api/patients/PAT%5FAAAAAAAA/restore")?.params).toEqual({ hash: "PAT_AAAAAAAA" });
    // A literal wins over the parameter at the same place.
    expect(routes.match("/api/auth/me")?.endpoint.allow).toBe("GET, HEAD");
  });

  it("allows one trailing slash, and nothing else around the segments", () => {
    expect(routes.match("/api/patients/")).toBeDefined();
    expect(routes.match("/api/patients//")).toBeUndefined();
    expect(routes.match("/api//patients")).toBeUndefined();
    expect(routes.match("/api/patients/PAT_A/restore/x")).toBeUndefined();
    expect(routes.match("api/patients")).toBeUndefined();
    expect(routes.match("/")).toBeUndefined();
  });

  it("refuses a percent-encoding that does not decode with a 400 error", () => {
    expect(() => routes.match("/api/patients/%E0%A4%A")).toThrow(expect.objectContaining({ status: 400 }));
  });

  it("refuses a route added twice, or two parameter names at one place", () => {
    expect(() => new RouteTable().add("/a", {}).add("/a", {})).toThrow("routed twice");
    expect(() => new RouteTable().add("/a/:x", {}).add("/a/:y/b", {})).toThrow(":y where another route has :x");
  });
});

describe("RouteTable.middleware in an Express app over real HTTP", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    const routes = new RouteTable()
      .add("/api/things/:id", {
        get: (req, res) => void res.json({ id: req.params.id }),
        put: async () => {
          throw Object.assign(new Error("refused"), { status: 409 });
        },
      })
      .add("/api/boom", { get: () => { throw new Error("sync failure"); } });
    app.use(routes.middleware());
    app.use(notFound);
    app.use((error: { status?: number; message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(error.status ?? 500).json({ caught: error.message });
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("runs the action with its parameters, HEAD as GET, and a 405 with Allow for another method", async () => {
    expect(await (await fetch(`${base}/api/things/a%20b?x=1`)).json()).toEqual({ id: "a b" });
    const head = await fetch(`${base}/api/things/a`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const post = await fetch(`${base}/api/things/a`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, PUT");
    expect((await post.json()).message).toBe("Method not allowed.");
  });

  it("hands sync throws, async rejections and undecodable segments to the error handler", async () => {
    const rejected = await fetch(`${base}/api/things/a`, { method: "PUT" });
    expect([rejected.status, await rejected.json()]).toEqual([409, { caught: "refused" }]);
    const thrown = await fetch(`${base}/api/boom`);
    expect([thrown.status, await thrown.json()]).toEqual([500, { caught: "sync failure" }]);
    expect((await fetch(`${base}/api/things/%E0%A4%A`)).status).toBe(400);
  });

  it("lets unknown paths fall through to the next middleware", async () => {
    const missing = await fetch(`${base}/api/nothing`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe("Resource not found.");
  });
});
