import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listQuery } from "../../runtime/client/src/query.js";
import { resourceClient } from "../../runtime/client/src/resources.js";
import { failureOf, unwrap, ApiError } from "../../runtime/client/src/result.js";
import { Transport } from "../../runtime/client/src/transport.js";

/** The client's runtime (runtime/client) without a server: how it spells queries and reads failures. */
describe("listQuery", () => {
  it("spells filters, lists, pairs, flags, sort, with, pages and cursors as the API reads them", () => {
    const query = listQuery({
      filter: {
        name: { contains: "sil va" },
        status: { in: ["scheduled", "completed"] },
        weight: { between: [1.5, 3] },
        phone: { null: true },
        doctor: { eq: "DOC_AAAAAAAA", ne: undefined },
      },
      search: "maria",
      sort: ["-name", "created_at"],
      with: ["doctor", "patient"],
      page: 2,
      perPage: 20,
      withTrashed: true,
    });
    expect([...new URLSearchParams(query.slice(1))]).toEqual([
      ["filter[name][contains]", "sil va"],
      ["filter[status][in]", "scheduled,completed"],
      ["filter[weight][between]", "1.5,3"],
      ["filter[phone][null]", "true"],
      ["filter[doctor][eq]", "DOC_AAAAAAAA"],
      ["search", "maria"],
      ["sort", "-name,created_at"],
      ["with", "doctor,patient"],
      ["page", "2"],
      ["per_page", "20"],
      ["with_trashed", "true"],
    ]);
    expect(query.startsWith("?filter%5Bname%5D%5Bcontains%5D=sil+va&")).toBe(true);
  });

  it("writes nothing without parameters, and keeps an empty cursor (the first cursor page)", () => {
    expect(listQuery()).toBe("");
    expect(listQuery({ sort: [], with: [] })).toBe("");
    expect(listQuery({ cursor: "" })).toBe("?cursor=");
  });
});

describe("failureOf", () => {
  it("reads a 422's errors, a 429's Retry-After and any other envelope's message", () => {
    expect(failureOf(422, { message: "The given data was invalid.", errors: { cpf: ["x"] } }, null)).toEqual({
      status: 422,
      message: "The given data was invalid.",
      errors: { cpf: ["x"] },
    });
    expect(failureOf(429, { message: "Too many attempts." }, "42")).toEqual({ status: 429, message: "Too many attempts.", retryAfter: 42 });
    expect(failureOf(429, { message: "Too many attempts." }, "soon")).toMatchObject({ retryAfter: undefined });
    expect(failureOf(409, { message: "Resource is referenced by other records." }, null)).toEqual({
      status: 409,
      message: "Resource is referenced by other records.",
    });
  });

  it("takes what is not the API's envelope, or a status it never answers with, for a network failure", () => {
    expect(failureOf(502, "<html>Bad gateway</html>", null)).toMatchObject({ status: 0, kind: "network" });
    expect(failureOf(418, { message: "I'm a teapot" }, null)).toMatchObject({ status: 0, kind: "network" });
    expect(failureOf(404, undefined, null)).toMatchObject({ status: 0, kind: "network" });
  });

  it("is thrown by unwrap as an ApiError that keeps the typed failure", () => {
    const error = failureOf(404, { message: "Resource not found." }, null);
    expect(() => unwrap({ error })).toThrow(ApiError);
    expect(() => unwrap({ error })).toThrow("404 Resource not found.");
    expect(unwrap({ data: 5 })).toBe(5);
  });
});

describe("a call that does not answer", () => {
  // A real server on the loopback that reads each request and never answers it.
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer(() => undefined);
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  });
  const list = (transport: Transport) => resourceClient(transport, "/api/patients").list();

  it("ends at the client's time limit as a network failure", async () => {
    // Without the limit this call would wait for ever (and the test fail at Vitest's own limit).
    const result = await list(new Transport({ baseUrl, timeoutMs: 100 }));
    expect(result.error).toMatchObject({ status: 0, kind: "network" });
  });

  it("ends when the client's signal aborts, and so does every later call of that client", async () => {
    const controller = new AbortController();
    const transport = new Transport({ baseUrl, signal: controller.signal, timeoutMs: 60_000 });
    const pending = list(transport);
    setTimeout(() => controller.abort(), 50);
    expect((await pending).error).toMatchObject({ status: 0, kind: "network" });
    expect((await list(transport)).error).toMatchObject({ status: 0, kind: "network" });
  });
});

describe("the runtime's size", () => {
  it("stays within 3 kB minified and gzipped, bundled as a browser app would bundle it", async () => {
    const bundled = await build({
      entryPoints: [new URL("../../runtime/client/src/core.ts", import.meta.url).pathname],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      write: false,
    });
    const size = gzipSync(bundled.outputFiles[0]!.contents, { level: 9 }).length;
    // 2 kB until the account routes came (issue 48: sign-up, reset, second factor, invitations),
    // 2.5 kB until uploads (issue 50).
    expect(size).toBeLessThanOrEqual(3072);
  });
});
