import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { settleDeliveries } from "../../runtime/common/src/events/deliveries.js";
import { fanOut } from "../../runtime/common/src/events/fan-out.js";
import { claimLanes, closeLane, openMissingLanes, pendingOf, refreshVersion, type Lane } from "../../runtime/common/src/events/lanes.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { emptyOutbox, openOutboxDatabase } from "../support/events-table.js";
import { integrationTargets, type IntegrationDatabase } from "../support/integration-database.js";

/**
 * Issue 45: the lanes deliveries wait in (runtime events/lanes.ts), on a real database each:
 * a claim takes due lanes and skips leased ones, whatever waits behind them; a lane is closed only
 * at the version its worker read, so a fan-out adding to it at the same moment never leaves a
 * pending delivery without a lane (hundreds of races); a worker that lost its lease settles nothing.
 */
const everything = [{ name: "crm", accepts: () => true }];

describe.each(integrationTargets)("delivery lanes on $label", ({ dialect }) => {
  let db: Sql;
  let opened: IntegrationDatabase | undefined;
  let id = 0;

  beforeAll(async () => {
    opened = await openOutboxDatabase(dialect, "lanes", 6);
    db = opened.db;
  }, 120_000);

  afterAll(async () => {
    await opened?.close();
  });

  beforeEach(() => emptyOutbox(db));

  const addEvent = (hash: string) =>
    db.run(`INSERT INTO "hashapi_events" ("type", "record_hash", "changes", "created_at") VALUES ('patient.updated', '${hash}', '{"n":[null,${(id += 1)}]}', '2026-01-01T00:00:00.000Z')`);
  const count = async (text: string) => Number((await db.get(text))?.count ?? 0);
  const hash = (n: number) => `PAT_${String(n).padStart(8, "0")}`;

  it("claims due lanes only, oldest first, and skips those another worker holds until their lease ends", async () => {
    for (let n = 0; n < 5; n += 1) for (let k = 0; k < 3; k += 1) await addEvent(hash(n));
    expect((await fanOut(db, everything)).events).toBe(15);
    const first = await claimLanes(db, "crm", 3, 60_000);
    const second = await claimLanes(db, "crm", 10, 60_000);
    expect(first).toHaveLength(3);
    expect(second).toHaveLength(2);
    expect(new Set([...first, ...second].map((lane) => lane.recordHash)).size).toBe(5);
    expect(await claimLanes(db, "crm", 10, 60_000)).toEqual([]);
    // In event order, the lane's own deliveries only.
    const pending = await pendingOf(db, first[0]!, 50);
    expect(pending.map((delivery) => delivery.event.hash)).toEqual([first[0]!.recordHash, first[0]!.recordHash, first[0]!.recordHash]);
    expect(pending.map((delivery) => delivery.event.id)).toEqual([...pending.map((delivery) => delivery.event.id)].sort((a, b) => a - b));
    // A lease that ran out is due again.
    const short = await claimLanesAfter(db, 30);
    expect(short).toEqual([]);
  });

  async function claimLanesAfter(sql: Sql, waitMs: number): Promise<Lane[]> {
    await new Promise((done) => setTimeout(done, waitMs));
    return claimLanes(sql, "crm", 10, 60_000);
  }

  it("takes a lane again once its lease ran out", async () => {
    await addEvent(hash(7));
    await fanOut(db, everything);
    const [held] = await claimLanes(db, "crm", 1, 50);
    expect(held).toBeDefined();
    expect(await claimLanes(db, "crm", 1, 50)).toEqual([]);
    const [again] = await claimLanesAfter(db, 120);
    expect(again?.recordHash).toBe(held!.recordHash);
    // The first worker's lease is gone: it settles nothing and closes nothing.
    const [delivery] = await pendingOf(db, held!, 1);
    expect(await settleDeliveries(db, held!, [{ delivery: delivery!, outcome: { delivered: true, status: 204, error: null, retryAt: null } }])).toBe(false);
    expect(await closeLane(db, held!)).toBe(false);
    expect(await count(`SELECT COUNT(*) AS "count" FROM "hashapi_deliveries" WHERE "status" = 'pending'`)).toBe(1);
    expect(await settleDeliveries(db, again!, [{ delivery: delivery!, outcome: { delivered: true, status: 204, error: null, retryAt: null } }])).toBe(true);
    expect(await closeLane(db, again!)).toBe(true);
    expect(await count(`SELECT COUNT(*) AS "count" FROM "hashapi_lanes"`)).toBe(0);
  });

  it("opens a lane for pending deliveries that have none (a backlog from before lanes), once", async () => {
    for (let n = 0; n < 3; n += 1) await addEvent(hash(2_000 + n));
    await fanOut(db, everything);
    await db.run(`DELETE FROM "hashapi_lanes"`);
    await openMissingLanes(db);
    await openMissingLanes(db);
    expect(await count(`SELECT COUNT(*) AS "count" FROM "hashapi_lanes"`)).toBe(3);
    expect(await claimLanes(db, "crm", 10, 60_000)).toHaveLength(3);
  });

  it("never leaves a pending delivery without a lane while fan-out adds to lanes being closed: 300 races", async () => {
    const rounds = 300;
    for (let round = 0; round < rounds; round += 1) {
      const record = hash(1_000 + round);
      await addEvent(record);
      await fanOut(db, everything);
      const [lane] = await claimLanes(db, "crm", 1, 60_000);
      const [delivery] = await pendingOf(db, lane!, 50);
      await settleDeliveries(db, lane!, [{ delivery: delivery!, outcome: { delivered: true, status: 204, error: null, retryAt: null } }]);
      // The worker finds its lane empty and closes it, while a new event of the record is fanned out.
      await addEvent(record);
      const [closed] = await Promise.all([closeLane(db, lane!), fanOut(db, everything)]);
      const pending = await count(`SELECT COUNT(*) AS "count" FROM "hashapi_deliveries" WHERE "record_hash" = '${record}' AND "status" = 'pending'`);
      const lanes = await count(`SELECT COUNT(*) AS "count" FROM "hashapi_lanes" WHERE "record_hash" = '${record}'`);
      // Either the lane was closed before the fan-out (which opened it anew), or not closed (it grew).
      expect(pending, `round ${round}`).toBe(1);
      expect(lanes, `round ${round}: the new delivery's lane (closed first: ${closed})`).toBe(1);
      if (!closed) expect(await refreshVersion(db, lane!)).toBe(true);
      await db.run(`DELETE FROM "hashapi_lanes"`);
      await db.run(`UPDATE "hashapi_deliveries" SET "status" = 'delivered'`);
    }
  }, 120_000);
});
