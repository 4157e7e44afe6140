import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { errorHandler } from "../../runtime/common/src/http/error-handler.js";
import { provideRequestLog, startRequest } from "../../runtime/common/src/http/request-context.js";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../../runtime/common/src/base/errors.js";

/** Domain errors thrown by user code (a controller hook, a policy) answer with their own message (issue 21). */
describe("errorHandler (runtime/common/src/http/error-handler.ts) over real HTTP", () => {
  let server: ReturnType<ReturnType<typeof express>["listen"]>;
  let base: string;
  const thrown: Record<string, () => never> = {
    "conflict-own": () => { throw new Conflict("A paid order cannot be deleted."); },
    "conflict-default": () => { throw new Conflict(); },
    "forbidden-own": () => { throw new Forbidden("Only the author may edit a review."); },
    "forbidden-default": () => { throw new Forbidden(); },
    "not-found-own": () => { throw new NotFound("No such shelf."); },
    "not-found-default": () => { throw new NotFound(); },
    validation: () => { throw new ValidationFailed({ isbn: ["The isbn is not in our catalogue."] }); },
    unexpected: () => { throw new Error("SELECT secret FROM internals failed at /srv/app.js:12"); },
    "no-table": () => { throw Object.assign(new Error("no such table: reviews"), { code: "SQLITE_ERROR" }); },
  };
  const logged: string[] = [];

  beforeAll(async () => {
    const app = express();
    const logger = pino({ level: "info", base: undefined }, { write: (line: string) => void logged.push(line) });
    provideRequestLog(app, logger);
    app.use((req, res, next) => {
      startRequest(logger, req, res, false);
      next();
    });
    app.get("/:case", (req, _res) => thrown[String(req.params.case)]!());
    app.use(errorHandler);
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    ["conflict-own", 409, "A paid order cannot be deleted."],
    ["conflict-default", 409, "Resource is referenced by other records."],
    ["forbidden-own", 403, "Only the author may edit a review."],
    ["forbidden-default", 403, "This action is unauthorized."],
    ["not-found-own", 404, "No such shelf."],
    ["not-found-default", 404, "Resource not found."],
  ])("%s answers %i with %j in the envelope", async (name, status, message) => {
    const response = await fetch(`${base}/${name}`);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ type: "error", status, message });
  });

  it("answers anything unexpected with a bare 500, its details only in the log, under the request id", async () => {
    const response = await fetch(`${base}/unexpected`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ type: "error", status: 500, message: "Server Error" });
    expect(text).not.toMatch(/secret|internals|srv/);
    const id = response.headers.get("x-request-id")!;
    expect(logged.some((line) => line.includes(id) && line.includes("internals"))).toBe(true);
  });

  // The project's own database says which errors are which (test/runtime/database-errors.test.ts has
  // PostgreSQL's "relation does not exist"): this runtime is SQLite's.
  it.each(["no-table"])("answers a database that lacks a table (%s) with 503 'not ready', never a 500", async (name) => {
    const response = await fetch(`${base}/${name}`);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toEqual({ type: "error", status: 503, message: "The service is not ready." });
  });

  it("answers a ValidationFailed with its own errors and the standard message", async () => {
    const response = await fetch(`${base}/validation`);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ type: "error", status: 422, message: "The given data was invalid.", errors: { isbn: ["The isbn is not in our catalogue."] } });
  });
});
