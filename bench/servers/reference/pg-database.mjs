// The PostgreSQL reference's data access (bench/servers/pg-reference.mjs): the statements of
// database.mjs on a `pg` pool, each a named prepared statement (parsed once per connection), behind
// the same interface — get/all/run — whose results are promises instead of values.
import pg from "pg";
import { eventColumns } from "./events.mjs";

const patientColumns = `"id", "hash", "name", "cpf", "phone", "created_at", "updated_at", "deleted_at"`;
const updatableColumns = ["name", "cpf", "phone"];

// TIMESTAMP(3) columns (how Prisma stores DateTime on PostgreSQL) hold UTC wall-clock times: read
// them as UTC text, never as a Date in the process's time zone.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (text) => `${text.replace(" ", "T")}Z`);

/** `?`-free SQL with $1…$n, named so that each connection parses it once. */
function statement(pool, name, text, { pluck = false } = {}) {
  const run = (values) => pool.query({ name, text, values });
  const first = (result) => {
    const row = result.rows[0];
    return pluck && row !== undefined ? Object.values(row)[0] : row;
  };
  return {
    get: (...values) => run(values).then(first),
    all: (...values) => run(values).then((result) => (pluck ? result.rows.map((row) => Object.values(row)[0]) : result.rows)),
    run: (...values) => run(values),
  };
}

/** A statement whose parameters come from one object by name: `@name` in the text, as database.mjs writes them. */
function namedStatement(pool, name, text) {
  const names = [];
  const positional = text.replace(/@(\w+)/g, (_, parameter) => `$${names.push(parameter)}`);
  const prepared = statement(pool, name, positional);
  return {
    get: (values) => prepared.get(...names.map((parameter) => values[parameter])),
    /** The statement on one client (a transaction's), for withEvent. */
    query: (client, values) => client.query({ name, text: positional, values: names.map((parameter) => values[parameter]) }),
  };
}

function prepareUpdates(pool) {
  const statements = new Map();
  for (let mask = 0; mask < 1 << updatableColumns.length; mask += 1) {
    const columns = updatableColumns.filter((_, index) => mask & (1 << index));
    const assignments = [...columns.map((column) => `"${column}" = @${column}`), `"updated_at" = @updated_at`];
    statements.set(columns.join(","), namedStatement(pool, `update_${mask}`, `UPDATE "patients" SET ${assignments.join(", ")} WHERE "id" = @id RETURNING ${patientColumns}`));
  }
  return statements;
}

/** poolSize: the service's own (runtime db/sql.ts opens 10 per process). */
export function openPgDatabase(url, poolSize = 10) {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on("error", () => undefined);
  const updates = prepareUpdates(pool);
  const insertEvent = { name: "insert_event", text: `INSERT INTO "hashapi_events" (${eventColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7)` };
  return {
    db: { close: () => pool.end() },
    revokedToken: statement(pool, "revoked", `SELECT "id" FROM "revoked_tokens" WHERE "jti" = $1`, { pluck: true }),
    userByHash: statement(pool, "user_by_hash", `SELECT "id", "hash", "name", "email" FROM "users" WHERE "hash" = $1`),
    userByEmail: statement(pool, "user_by_email", `SELECT "hash", "password" FROM "users" WHERE "email" = $1`),
    throttle: statement(pool, "throttle", `SELECT "attempts", "reset_at" FROM "login_throttles" WHERE "key" = $1`),
    recordFailure: statement(
      pool,
      "record_failure",
      `INSERT INTO "login_throttles" ("key", "attempts", "reset_at") VALUES ($1, 1, $2) ON CONFLICT ("key") DO UPDATE SET "attempts" = "login_throttles"."attempts" + 1 RETURNING "reset_at"`,
    ),
    restartThrottle: statement(pool, "restart_throttle", `UPDATE "login_throttles" SET "attempts" = 1, "reset_at" = $1 WHERE "key" = $2`),
    clearThrottle: statement(pool, "clear_throttle", `DELETE FROM "login_throttles" WHERE "key" = $1`),
    livePatient: statement(pool, "live_patient", `SELECT ${patientColumns} FROM "patients" WHERE "hash" = $1 AND "deleted_at" IS NULL LIMIT 1`),
    livePage: statement(pool, "live_page", `SELECT ${patientColumns} FROM "patients" WHERE "deleted_at" IS NULL ORDER BY "created_at" ASC, "id" ASC LIMIT $1 OFFSET $2`),
    liveCount: statement(pool, "live_count", `SELECT COUNT(*)::int FROM "patients" WHERE "deleted_at" IS NULL`, { pluck: true }),
    cpfTaken: statement(pool, "cpf_taken", `SELECT "id" FROM "patients" WHERE "cpf" = $1 AND "id" IS DISTINCT FROM $2 LIMIT 1`, { pluck: true }),
    insertPatient: namedStatement(
      pool,
      "insert_patient",
      `INSERT INTO "patients" ("hash", "name", "cpf", "phone", "created_at", "updated_at") VALUES (@hash, @name, @cpf, @phone, @created_at, @updated_at) RETURNING ${patientColumns}`,
    ),
    updatePatient: (columns) => updates.get(columns.join(",")),
    updatableColumns,
    /** As database.mjs withEvent: BEGIN, the write, its event, COMMIT, on one client of the pool. */
    async withEvent(write, eventOf) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const row = await write(async (statement, values) => (await statement.query(client, values)).rows[0]);
        if (row !== undefined) await client.query({ ...insertEvent, values: eventOf(row) });
        await client.query("COMMIT");
        return row;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    /** The column of a UNIQUE violation on patients (patients_cpf_key → cpf), else undefined. */
    uniqueColumn: (error) => (error?.code === "23505" ? /^patients_(\w+)_key$/.exec(error.constraint ?? "")?.[1] : undefined),
  };
}
