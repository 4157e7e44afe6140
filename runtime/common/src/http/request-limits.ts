// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import cluster from "node:cluster";
import type { Request } from "express";
import {
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { TooManyRequests } from "../base/errors.js";
import type { Logger } from "../base/logger.js";
import type { Sql } from "../db/sql.js";

/**
 * hashapi.yaml's `rateLimit` and the resources' own (docs/api-contract.md §9): requests per window
 * for each caller, a signed-in user by their public id, anyone else by address (as TRUST_PROXY
 * reports it). A resource's action may have a limit of its own, counted apart and on top.
 */
export interface RequestLimitRules {
  readonly windowSeconds: number;
  /** Per client address, for callers without a valid token. */
  readonly anonymous?: number;
  /** Per user, for the roles `roles` does not name. */
  readonly signedIn?: number;
  readonly roles: Readonly<Record<string, number>>;
  /**
   * With tenancy: per tenant, the requests of all its members in it together, on top of each
   * caller's own: a busy tenant cannot take every other's share.
   */
  readonly tenant?: number;
  /** `<collection>.<action>` → per caller per window (a resource spec's `rateLimit`). */
  readonly routes: Readonly<Record<string, number>>;
  /** Megabytes of files per caller per window, every upload together (files/). */
  readonly uploadMegabytes?: number;
}

/**
 * Where the counts live: the database on PostgreSQL (every worker of every instance shares them,
 * table hashapi_rate_limits), else the supervisor's memory (every worker of this machine, SQLite's
 * one machine), or this process's own when it has no supervisor.
 */
export type LimitStore = { database: Sql } | "process";

/** The table of the counts on PostgreSQL (migration `rate_limits`; rate-limiter-flexible's layout). */
export const requestLimitsTable = "hashapi_rate_limits";

export class RequestLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly rules: RequestLimitRules,
    private readonly store: LimitStore,
    private readonly logger: Logger,
  ) {}

  /** Whether any limit is declared at all (none: no check costs anything). */
  static declared(rules: RequestLimitRules | undefined): rules is RequestLimitRules {
    if (!rules) return false;
    return (
      rules.anonymous !== undefined ||
      rules.signedIn !== undefined ||
      rules.tenant !== undefined ||
      rules.uploadMegabytes !== undefined ||
      Object.keys(rules.roles).length > 0 ||
      Object.keys(rules.routes).length > 0
    );
  }

  /** The caller's own limit: after sign-in (a user), or for a request without a valid token. */
  async caller(req: Request): Promise<void> {
    const user = req.user;
    const points = user
      ? (this.rules.roles[user.role] ?? this.rules.signedIn)
      : this.rules.anonymous;
    if (points !== undefined) await this.consume(user ? "user" : "address", points, callerKey(req));
    // The tenant a request works in (X-Tenant, a member's or a bypass role's) counts it too.
    const tenant = user?.tenant;
    if (tenant && this.rules.tenant !== undefined)
      await this.consume("tenant", this.rules.tenant, `t:${tenant.hash}`);
  }

  /** A resource action's own limit, when its spec declares one. */
  async route(name: string, req: Request): Promise<void> {
    const points = this.rules.routes[name];
    if (points === undefined) return;
    await this.consume(`route:${name}`, points, callerKey(req));
  }

  /**
   * The bytes a caller may still upload in this window (`rateLimit.uploadMegabytes`), undefined
   * without that limit: 429 with Retry-After when none is left.
   */
  async uploadAllowance(req: Request): Promise<number | undefined> {
    const megabytes = this.rules.uploadMegabytes;
    if (megabytes === undefined) return undefined;
    let state: RateLimiterRes | null;
    try {
      state = await this.limiter("upload", megabytes * 1024).get(callerKey(req));
    } catch (error) {
      this.logger.warn({ err: error }, "request limits: the store did not answer");
      return undefined;
    }
    // Counted in kilobytes: a small file costs what it weighs, not a megabyte.
    const left = megabytes * 1024 - (state?.consumedPoints ?? 0);
    if (left <= 0)
      throw new TooManyRequests(Math.max(1, Math.ceil((state?.msBeforeNext ?? 1000) / 1000)));
    return left * 1024;
  }

  /** Counts what a caller uploaded against `rateLimit.uploadMegabytes` (in kilobytes, a part as one). */
  async uploaded(req: Request, bytes: number): Promise<void> {
    const megabytes = this.rules.uploadMegabytes;
    if (megabytes === undefined || bytes === 0) return;
    const points = Math.min(megabytes * 1024, Math.ceil(bytes / 1024));
    await this.limiter("upload", megabytes * 1024)
      .penalty(callerKey(req), points)
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, "request limits: the store did not answer"),
      );
  }

  /** Whether a resource action has a limit of its own. */
  limitsRoute(name: string): boolean {
    return this.rules.routes[name] !== undefined;
  }

  private async consume(kind: string, points: number, key: string): Promise<void> {
    try {
      await this.limiter(kind, points).consume(key);
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes)
        throw new TooManyRequests(Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)));
      // The store is away (the database): the request goes on, as it would without limits; the
      // database's own absence answers it soon enough.
      this.logger.warn({ err: outcome }, "request limits: the store did not answer");
    }
  }

  private limiter(kind: string, points: number): RateLimiterAbstract {
    const prefix = `${kind}:${points}`;
    let limiter = this.limiters.get(prefix);
    if (!limiter) {
      limiter = openLimiter(this.store, {
        keyPrefix: prefix,
        points,
        duration: this.rules.windowSeconds,
        // One limiter's sweep deletes every expired count in the table, whatever its prefix: the
        // process's first limiter sweeps for all, instead of each of them deleting the same rows.
        sweeps: this.limiters.size === 0,
      });
      this.limiters.set(prefix, limiter);
    }
    return limiter;
  }
}

/** A signed-in caller is their user; anyone else their address. */
function callerKey(req: Request): string {
  return req.user ? `u:${req.user.hash}` : `a:${req.ip ?? "unknown"}`;
}

function openLimiter(
  store: LimitStore,
  { sweeps, ...options }: { keyPrefix: string; points: number; duration: number; sweeps: boolean },
): RateLimiterAbstract {
  if (store !== "process")
    return new RateLimiterPostgres({
      ...options,
      storeClient: statementsOf(store.database),
      storeType: "pool",
      tableName: requestLimitsTable,
      tableCreated: true,
      // Expired counts are deleted by the library every five minutes (its timer is unref'd).
      clearExpiredByTimeout: sweeps,
    });
  if (cluster.isWorker) return new RateLimiterCluster({ ...options, timeoutMs: 1000 });
  return new RateLimiterMemory(options);
}

/**
 * The library's statements through the service's own connections: named or not as the driver
 * decides (a pooler in transaction mode refuses the library's named ones), bounded by its timeout.
 */
function statementsOf(database: Sql) {
  return {
    async query(statement: { text: string; values?: unknown[] }) {
      return { rows: await database.all(statement.text, statement.values ?? []) };
    },
  };
}
