// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { CurrentUser } from "../src/auth/auth.service.js";
import { connectDatabase, sql, type Database } from "../src/db/database.js";
import { describeFieldErrors, ValidationFailed } from "../src/base/errors.js";
import { hashMatcher, newHash } from "../src/base/hash-id.js";
import { createLogger, type Logger } from "../src/base/logger.js";
import { hashPassword } from "../src/base/passwords.js";
import { totpCode, totpStep } from "../src/base/totp.js";
import { tableLookup } from "../src/data/table.js";
import { freshTestDatabase } from "../src/db/test-database.js";
import type { ResourceDescriptor } from "../src/resource/descriptor.js";
import { completedForService } from "../src/resource/server-set.js";
import { ResourceService } from "../src/resource/service.js";
import { tenanted, withinTenants, type TenantParts } from "./tenants.js";

/*
 * What the generated tests (and yours) run against: the project's real app on a fresh database,
 * over real HTTP on a loopback port. test/support.ts hands it the project's own parts.
 */

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export interface TestApi<Tables = Readonly<Record<string, unknown>>> {
  baseUrl: string;
  token: string;
  db: Database;
  /** Every resource's table, as `req.tables` gives them to the app: reads and writes no policy sees. */
  tables: Tables;
  /** The signed-in tester (of the first, most privileged role), as policies receive the caller. */
  user: CurrentUser;
  /** A signed-in user of each of the project's roles, and their token (`token`/`user` are the first's). */
  as(role: string): { user: CurrentUser; token: string };
  /** The project's roles, most privileged first. */
  roles: readonly string[];
  /** The project's largest `per_page` (hashapi.yaml `pagination.maxPerPage`). */
  maxPerPage: number;
  /**
   * With tenancy, for a tenanted resource's tests: the tenant every request works in (X-Tenant) and
   * every record the service makes belongs to, and the same API working in a second tenant, whose
   * records must never be reached from this one.
   */
  tenant?: { hash: string; elsewhere: () => TestApi<Tables> };
  /** A resource's service (src/resource/service.ts): its data rules, without its controller and policy. */
  service(resource: ResourceDescriptor<any, any, any, any>): ResourceService<any, any, any, any>;
  request(
    method: string,
    path: string,
    body?: unknown,
    options?: { token?: string | null; headers?: Record<string, string> },
  ): Promise<Reply>;
  close(): Promise<void>;
}

/** The project's parts a test API is built of (src/config.ts, src/app.ts, src/resources/tables.ts). */
export interface ProjectParts<Config, Tables> {
  loadConfig(environment: NodeJS.ProcessEnv): Config & {
    databaseUrl: string;
    pagination: { maxPerPage: number };
  };
  createApp(dependencies: { config: Config; db: Database; logger: Logger }): {
    readonly app: RequestListener;
  };
  openTables(db: Database): Tables;
  /** hashapi.yaml's auth.roles, most privileged first (src/auth/roles.ts). */
  roles: readonly string[];
  /** hashapi.yaml's `auth.mfa.required`: testers of these roles set a second factor up first. */
  mfaRequired?: readonly string[];
  /** hashapi.yaml's `tenancy` (test/tenants.ts): the tenant roles, and how a tenant is made. */
  tenancy?: TenantParts<Tables>;
}

/** The pattern of one resource's public ids (the service's own matcher). */
export const hashPattern = hashMatcher;

/**
 * No response may carry an internal id or a foreign key, at any depth. `public_id` is the public
 * identifier; the keys under a 422's `errors` are the client's own keys, echoed.
 */
export function assertNoInternalIds(value: unknown, path = "body"): void {
  if (Array.isArray(value))
    return value.forEach((item, index) => assertNoInternalIds(item, `${path}[${index}]`));
  if (value === null || typeof value !== "object") return;
  for (const [key, child] of Object.entries(value)) {
    if (path === "body" && key === "errors") continue;
    const leaks = key === "id" || (key.endsWith("_id") && key !== "public_id");
    expect(leaks, `${path}.${key} leaks an internal id`).toBe(false);
    assertNoInternalIds(child, `${path}.${key}`);
  }
}

/**
 * A reply as a failing assertion shows it: the status, the message and, for a 422, each field with
 * its messages ("422 The given data was invalid. country: The country field must be 2 characters.").
 */
export function explain(reply: { status: number; body: any }): string {
  const body = reply.body as { message?: unknown; errors?: Record<string, string[]> } | null;
  const errors = describeFieldErrors(body?.errors ?? {});
  const message = typeof body?.message === "string" ? body.message : "";
  return [String(reply.status), message, ...errors].filter(Boolean).join(" ");
}

/**
 * A payload as the resource's own create rules take it (the API's validator: `_confirmation` copies
 * dropped), or an error naming each field a factory got wrong.
 */
export function acceptedPayload<Create>(
  resource: ResourceDescriptor<any, any, Create, any>,
  payload: unknown,
  /** The user a `set:` relation the payload leaves out is set to, as the controller sets it. */
  callerHash?: string,
): Create {
  try {
    // What the server sets (`set:`, a direct owner) and the create rules may not even list: filled
    // as the controller fills it, since the factories write through the service.
    return completedForService(
      resource,
      resource.validate.create(payload) as Create & object,
      payload as Record<string, unknown>,
      callerHash,
    );
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const reply = { status: 422, body: { message: error.message, errors: error.errors } };
    throw new Error(`the factory's payload was refused: ${explain(reply)}`);
  }
}

/** Sets a second factor up on the session of `token`: setup, then a code of the new secret. */
async function enrolSecondFactor(api: { request: TestApi<unknown>["request"] }, token: string) {
  const setup = await api.request(
    "POST",
    "/api/auth/mfa/setup",
    { password: "test-password" },
    { token },
  );
  expect(setup.status, explain(setup)).toBe(200);
  const code = totpCode(setup.body.data.secret, totpStep());
  const confirmed = await api.request("POST", "/api/auth/mfa/confirm", { code }, { token });
  expect(confirmed.status, explain(confirmed)).toBe(200);
}

let counter = 0;
/** A number no other record of this test run has used, for unique values. */
export function nextNumber(): number {
  counter += 1;
  return Number(`${process.pid % 1000}${String(counter).padStart(5, "0")}`);
}

/** The app on a fresh database, listening on a free loopback port, with one user logged in. */
export async function startTestApi<Config, Tables>(
  parts: ProjectParts<Config, Tables>,
  moduleUrl: string,
  /** With tenancy: the resource under test, whose records may belong to tenants. */
  resource?: ResourceDescriptor<any, any, any, any>,
): Promise<TestApi<Tables>> {
  const database = await freshTestDatabase(moduleUrl);
  // Files of file fields go to a folder of this run, removed with its database.
  const files = await mkdtemp(join(tmpdir(), "hashapi-test-files-"));
  const config = parts.loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    JWT_SECRET: "test-secret-that-is-long-enough-0123456789",
    STORAGE_FOLDER: files,
  });
  const db = await connectDatabase(config.databaseUrl);
  const server = createServer(parts.createApp({ config, db, logger: createLogger("silent") }).app);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const testers = new Map<string, { user: CurrentUser; token: string }>();
  const password = await hashPassword("test-password");
  // A tenanted resource is tested by the members of a tenant, one per tenant role.
  const inTenant = tenanted(parts.tenancy, resource);
  const platformRole = parts.tenancy?.platformRole ?? parts.roles.at(-1)!;
  for (const role of inTenant ? parts.tenancy!.roles : parts.roles) {
    const hash = newHash("USR");
    const user = {
      hash,
      name: `Tester (${role})`,
      email: `tester-${hash.toLowerCase()}@example.com`,
      role,
    };
    const now = new Date();
    const stored = inTenant ? platformRole : role;
    const inserted = await db.get(
      sql`INSERT INTO "users" ("hash", "name", "email", "password", "role", "created_at", "updated_at")
          VALUES (${user.hash}, ${user.name}, ${user.email}, ${password}, ${stored}, ${now}, ${now}) RETURNING "id"`,
    );
    testers.set(role, { user: { id: Number(inserted!.id), ...user }, token: "" });
  }
  const testerRoles = [...testers.keys()];
  const first = testers.get(testerRoles[0]!)!;

  const tables = parts.openTables(db);
  const tableOf = tableLookup(tables as Readonly<Record<string, unknown>>);
  const api: TestApi<Tables> = {
    baseUrl,
    token: "",
    db,
    tables,
    user: first.user,
    roles: testerRoles,
    as(role) {
      const tester = testers.get(role);
      if (!tester)
        throw new Error(
          `"${role}" is not one of the roles tested here (${testerRoles.join(", ")})`,
        );
      return tester;
    },
    maxPerPage: config.pagination.maxPerPage,
    service: (resource) => new ResourceService(resource, tableOf(resource.table), tableOf),
    async request(method, path, body, options = {}) {
      const token = options.token === undefined ? api.token : options.token;
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...options.headers,
        },
        body:
          body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      const parsed = text === "" ? null : JSON.parse(text);
      assertNoInternalIds(parsed);
      expect(response.headers.get("x-powered-by")).toBeNull();
      if (parsed && typeof parsed === "object" && "status" in parsed)
        expect(parsed.status).toBe(response.status);
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await db.close();
      await database.cleanup();
      await rm(files, { recursive: true, force: true });
    },
  };
  for (const tester of testers.values()) {
    const login = await api.request(
      "POST",
      "/api/auth/login",
      { email: tester.user.email, password: "test-password" },
      { token: null },
    );
    expect(login.status).toBe(200);
    tester.token = login.body.data.access_token;
    // A role that must have a second factor reaches only the enrolment routes until it has one:
    // the tester sets it up as a person would (its session goes on; others would end).
    if (parts.mfaRequired?.includes(tester.user.role)) await enrolSecondFactor(api, tester.token);
  }
  api.token = first.token;
  if (!inTenant) return api;
  return withinTenants(api, parts.tenancy!, testers, tableOf, platformRole);
}
