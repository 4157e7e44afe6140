// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodedInstant } from "../data/column-codec.js";
import { quote, sql, type Sql, type SqlRow } from "../db/sql.js";

/*
 * hashapi_uploads: every object the storage holds or is about to, from before its first byte is
 * written until it is removed. An upload is `pending` (asked for, its bytes not yet PUT),
 * `receiving` (streaming in), `ready` (stored and checked against its field's rules) or
 * `attached` (a record holds it, `record_id`). What is not attached within the grace period is an
 * orphan (file-jobs.ts removes it, bytes first), so a process killed mid-upload loses nothing and
 * leaves nothing for ever.
 */

export type UploadState = "pending" | "receiving" | "ready" | "attached" | "removing";

export interface Upload {
  readonly id: number;
  readonly token: string;
  readonly key: string;
  /** The resource's public id prefix (it survives a rename of the resource) and the field. */
  readonly prefix: string;
  readonly field: string;
  readonly uploaderId: number | null;
  readonly tenantId: number | null;
  readonly name: string;
  readonly size: number;
  readonly type: string;
  readonly state: UploadState;
  readonly recordId: number | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** What a record's file column holds: the object and what the output says of it. */
export interface StoredFile {
  readonly key: string;
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

function uploadOf(row: SqlRow, sql_: Sql): Upload {
  return {
    id: Number(row.id),
    token: String(row.token),
    key: String(row.key),
    prefix: String(row.prefix),
    field: String(row.field),
    uploaderId: row.uploader_id == null ? null : Number(row.uploader_id),
    tenantId: row.tenant_id == null ? null : Number(row.tenant_id),
    name: String(row.name),
    size: Number(row.size),
    type: String(row.type),
    state: String(row.state) as UploadState,
    recordId: row.record_id == null ? null : Number(row.record_id),
    createdAt: decodedInstant(row.created_at, sql_.dialect)!,
    expiresAt: decodedInstant(row.expires_at, sql_.dialect)!,
  };
}

/** An upload's row as it is inserted, before any of its bytes is written. */
export type NewUpload = Omit<Upload, "id" | "state" | "recordId" | "createdAt"> & {
  readonly state: "pending" | "receiving";
};

/** Inserts an upload's row before any of its bytes is written. */
export async function insertUpload(sql_: Sql, upload: NewUpload): Promise<number> {
  const { token, key, prefix, field, uploaderId, tenantId, name, size, type, state, expiresAt } =
    upload;
  const row = await sql_.get(
    sql`INSERT INTO "hashapi_uploads" ("token", "key", "prefix", "field", "uploader_id", "tenant_id", "name", "size", "type", "state", "created_at", "expires_at")
      VALUES (${token}, ${key}, ${prefix}, ${field}, ${uploaderId}, ${tenantId}, ${name}, ${size}, ${type}, ${state}, ${new Date()}, ${expiresAt}) RETURNING "id"`,
  );
  return Number(row!.id);
}

/** The upload a token names, or undefined. */
export async function uploadByToken(sql_: Sql, token: string): Promise<Upload | undefined> {
  const row = await sql_.get(sql`SELECT * FROM "hashapi_uploads" WHERE "token" = ${token}`);
  return row ? uploadOf(row, sql_) : undefined;
}

/** The attached upload of a storage key, or undefined (a download of anything else is a 404). */
export async function attachedByKey(sql_: Sql, key: string): Promise<Upload | undefined> {
  const row = await sql_.get(
    sql`SELECT * FROM "hashapi_uploads" WHERE "key" = ${key} AND "state" = 'attached'`,
  );
  return row ? uploadOf(row, sql_) : undefined;
}

/** The id of the upload a storage key belongs to. */
export async function uploadIdByKey(sql_: Sql, key: string): Promise<number | undefined> {
  const row = await sql_.get(sql`SELECT "id" FROM "hashapi_uploads" WHERE "key" = ${key}`);
  return row ? Number(row.id) : undefined;
}

export async function uploadById(sql_: Sql, id: number): Promise<Upload | undefined> {
  const row = await sql_.get(sql`SELECT * FROM "hashapi_uploads" WHERE "id" = ${id}`);
  return row ? uploadOf(row, sql_) : undefined;
}

/** Moves an upload from one state to the next; false when another request moved it first. */
export async function moveUpload(
  sql_: Sql,
  id: number,
  from: UploadState,
  to: UploadState,
  file?: { size: number; type: string },
): Promise<boolean> {
  const changed = file
    ? await sql_.run(
        sql`UPDATE "hashapi_uploads" SET "state" = ${to}, "size" = ${file.size}, "type" = ${file.type} WHERE "id" = ${id} AND "state" = ${from}`,
      )
    : await sql_.run(
        sql`UPDATE "hashapi_uploads" SET "state" = ${to} WHERE "id" = ${id} AND "state" = ${from}`,
      );
  return changed > 0;
}

/**
 * Attaches a ready upload to a record, in the record's write's transaction: false when it is no
 * longer ready for this field of this resource (another write took it, the orphan schedule removed it).
 */
export async function attachUpload(
  tx: Sql,
  upload: Pick<Upload, "id" | "prefix" | "field">,
  recordId: number,
): Promise<boolean> {
  const changed = await tx.run(
    sql`UPDATE "hashapi_uploads" SET "state" = 'attached', "record_id" = ${recordId}
      WHERE "id" = ${upload.id} AND "state" = 'ready' AND "prefix" = ${upload.prefix} AND "field" = ${upload.field}`,
  );
  return changed > 0;
}

/** The uploads attached to one record (a hard delete releases them). */
export async function uploadsOfRecord(
  tx: Sql,
  prefix: string,
  recordId: number,
): Promise<number[]> {
  const rows = await tx.all(
    sql`SELECT "id" FROM "hashapi_uploads" WHERE "prefix" = ${prefix} AND "record_id" = ${recordId} AND "state" = 'attached'`,
  );
  return rows.map((row) => Number(row.id));
}

/**
 * Takes an upload never attached out of reach of every write (`removing`) before its bytes go:
 * false when a write attached it first, which then keeps it.
 */
export async function markRemoving(sql_: Sql, id: number): Promise<boolean> {
  const changed = await sql_.run(
    sql`UPDATE "hashapi_uploads" SET "state" = 'removing' WHERE "id" = ${id} AND "state" <> 'attached'`,
  );
  return changed > 0;
}

export async function deleteUpload(sql_: Sql, id: number): Promise<void> {
  await sql_.run(sql`DELETE FROM "hashapi_uploads" WHERE "id" = ${id}`);
}

/** Uploads never attached whose grace ended before `before`, oldest first. */
export async function unattachedBefore(sql_: Sql, before: Date, limit: number): Promise<Upload[]> {
  const rows = await sql_.all(
    sql`SELECT * FROM "hashapi_uploads" WHERE "state" <> 'attached' AND "created_at" < ${before} ORDER BY "id" LIMIT ${limit}`,
  );
  return rows.map((row) => uploadOf(row, sql_));
}

/** Attached uploads of one resource whose record no longer exists (a cascade, a purge). */
export async function attachedToMissing(
  sql_: Sql,
  prefix: string,
  recordTable: string,
  limit: number,
) {
  const [first, second] = [sql_.dialect.placeholder(1), sql_.dialect.placeholder(2)];
  const rows = await sql_.all(
    `SELECT u.* FROM "hashapi_uploads" u LEFT JOIN ${quote(recordTable)} r ON r."id" = u."record_id"
      WHERE u."state" = 'attached' AND u."prefix" = ${first} AND r."id" IS NULL ORDER BY u."id" LIMIT ${second}`,
    [prefix, limit],
  );
  return rows.map((row) => uploadOf(row, sql_));
}
