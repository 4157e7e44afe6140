import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandler } from "../../runtime/common/src/http/error-handler.js";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../../runtime/common/src/lib/errors.js";

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
  };

  beforeAll(async () => {
    const app = express();
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

  it("answers a ValidationFailed with its own errors and the standard message", async () => {
    const response = await fetch(`${base}/validation`);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ type: "error", status: 422, message: "The given data was invalid.", errors: { isbn: ["The isbn is not in our catalogue."] } });
  });
});
