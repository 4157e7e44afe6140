import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { RequestLimits } from "../../runtime/common/src/http/request-limits.js";
import { TooManyRequests } from "../../runtime/common/src/base/errors.js";
import { createLogger } from "../../runtime/common/src/base/logger.js";

/** A signed-in request as sign-in leaves it: its user, and the tenant X-Tenant named, if any. */
const request = (user: string, tenant?: string) =>
  ({ user: { id: 1, hash: user, name: "", email: "", role: "user", ...(tenant ? { tenant: { id: 1, hash: tenant, role: "member", bypass: false } } : {}) }, ip: "127.0.0.1" }) as unknown as Request;

describe("request limits per tenant (rateLimit.tenant)", () => {
  it("counts every member's requests in one tenant together, and no other tenant's", async () => {
    const limits = new RequestLimits({ windowSeconds: 60, roles: {}, routes: {}, tenant: 3 }, "process", createLogger("silent"));
    expect(RequestLimits.declared({ windowSeconds: 60, roles: {}, routes: {}, tenant: 3 })).toBe(true);
    // Three requests of two members of one tenant: its share is spent, whoever sends the fourth.
    await limits.caller(request("USR_AAAAAAAA", "AGY_AAAAAAAA"));
    await limits.caller(request("USR_BBBBBBBB", "AGY_AAAAAAAA"));
    await limits.caller(request("USR_AAAAAAAA", "AGY_AAAAAAAA"));
    await expect(limits.caller(request("USR_CCCCCCCC", "AGY_AAAAAAAA"))).rejects.toBeInstanceOf(TooManyRequests);
    // Another tenant, and a request in none (the platform's routes), are not held back by it.
    await limits.caller(request("USR_AAAAAAAA", "AGY_BBBBBBBB"));
    for (let index = 0; index < 5; index += 1) await limits.caller(request("USR_AAAAAAAA"));
  });
});
