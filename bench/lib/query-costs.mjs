// The database side of the list and show endpoints, measured directly with better-sqlite3 on the
// statements the service runs (captured, see service-sql.mjs): their query plans, and the time of
// the list's COUNT and of page queries at the first, a middle and the last page. The COUNT that
// Prisma 6.19 emits for `count()` (what the peer runs, captured with `log: ["query"]`) is timed
// beside it.
import Database from "better-sqlite3";
import { median } from "./stats.mjs";

export const prismaCountSql =
  "SELECT COUNT(*) AS `_count$_all` FROM (SELECT `main`.`patients`.`id` FROM `main`.`patients` WHERE `main`.`patients`.`deleted_at` IS NULL LIMIT ? OFFSET ?) AS `sub`";

function plan(db, sql, params) {
  return db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map((row) => row.detail);
}

/** Median milliseconds of a statement, over as many runs as fit in about budgetMs (at least 5). */
function timeStatement(statement, params, budgetMs = 400) {
  const samples = [];
  const started = performance.now();
  while (samples.length < 5 || (performance.now() - started < budgetMs && samples.length < 1000)) {
    const before = performance.now();
    statement.all(...params);
    samples.push(performance.now() - before);
  }
  return median(samples);
}

// A table scan shows as a bare "SCAN <table or alias>"; an index walk says "USING ... INDEX".
const tableScan = /^SCAN \S+$/;

export function queryCosts(databasePath, seeded, serviceSql) {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const lastOffset = Math.max(0, (Math.ceil(seeded.liveCount / 15) - 1) * 15);
    const middleOffset = Math.floor(lastOffset / 30) * 15;
    const plans = {
      show: plan(db, serviceSql.show, [seeded.firstHash]),
      page: plan(db, serviceSql.page, [15, lastOffset]),
      count: plan(db, serviceSql.count, []),
    };
    const proofs = {
      showUsesHashIndex: plans.show.some((detail) => /USING (COVERING )?INDEX patients_hash_key \(hash=\?\)/.test(detail)) && !plans.show.some((detail) => tableScan.test(detail)),
      pageWalksTheOrderIndex:
        plans.page.some((detail) => detail.includes("patients_deleted_at_created_at_id_idx")) &&
        !plans.page.some((detail) => tableScan.test(detail) || detail.includes("TEMP B-TREE")),
    };
    const page = db.prepare(serviceSql.page);
    return {
      plans,
      proofs,
      countMs: timeStatement(db.prepare(serviceSql.count), []),
      prismaCountMs: timeStatement(db.prepare(prismaCountSql), [-1, 0]),
      pageMs: {
        first: timeStatement(page, [15, 0]),
        middle: timeStatement(page, [15, middleOffset]),
        last: timeStatement(page, [15, lastOffset]),
      },
    };
  } finally {
    db.close();
  }
}
