// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import { isoInstant } from "../base/dates.js";
import { sendList } from "../http/envelope.js";
import { parseHistoryQuery, type HistoryQuery } from "../http/history-query.js";
import { cursorPaginate, paginate } from "../http/pagination.js";
import { historyCount, historyPage, type HistoryEntry } from "../events/history.js";
import type { Sql } from "../db/sql.js";
import type { ListSpec } from "../http/list-query.js";
import type { ExitGate, ExitSubject } from "./exits.js";

/** What answering a record's history takes: the record (404 out of reach, 403 refused) and its reader's view. */
export interface HistorySource {
  readonly sql: Sql;
  /** The caller's list options (its cursors). */
  readonly listSpec: ListSpec;
  /** What every exit shows each reader (exits.ts), and the record's resource there. */
  readonly gate: ExitGate;
  readonly subject: ExitSubject;
  /** The record as `show` finds and authorizes it: the history is readable by whoever may show it. */
  record(req: Request): Promise<{ readonly hash: string }>;
}

/**
 * `GET /api/<c>/{hash}/history` (resources with `audit`): the record's events newest first, as a list
 * (envelope, page numbers or cursors), each as the exit gate shows it to the caller: changes to
 * keys the record does not show the caller now are left out, old events included.
 */
export async function sendHistory(
  req: Request,
  res: Response,
  source: HistorySource,
): Promise<void> {
  const { listSpec, gate, subject } = source;
  const record = await source.record(req);
  const query = parseHistoryQuery(req, listSpec);
  const reader = { kind: "caller", user: req.user } as const;
  const output = (entry: HistoryEntry) => ({
    event: entry.event,
    at: isoInstant(entry.at),
    actor: gate.actor(reader, entry.actor),
    changes: gate.changes(subject, reader, entry.changes),
  });
  if (query.cursor) {
    const cursors = listSpec.cursors;
    const { entries, next, prev } = await cursorWindow(
      source.sql,
      record.hash,
      query,
      query.cursor,
    );
    const seal = (direction: "next" | "prev", entry: HistoryEntry | undefined) =>
      entry === undefined || cursors === undefined
        ? null
        : cursors.seal({ direction, values: [entry.id] }, query.cursor!.binding);
    const { links, meta } = cursorPaginate(req, query.perPage, {
      next: next ? seal("next", entries.at(-1)) : null,
      prev: prev ? seal("prev", entries[0]) : null,
    });
    sendList(res, entries.map(output), links, meta);
    return;
  }
  const [entries, total] = await Promise.all([
    historyPage(
      source.sql,
      record.hash,
      { offset: (query.page - 1) * query.perPage },
      query.perPage,
    ),
    historyCount(source.sql, record.hash),
  ]);
  const { links, meta } = paginate(req, query.page, query.perPage, total, entries.length);
  sendList(res, entries.map(output), links, meta);
}

/** A cursor page: the entries, and whether older (next) and newer (prev) entries lie beside it. */
async function cursorWindow(
  sql: Sql,
  hash: string,
  query: HistoryQuery,
  cursor: NonNullable<HistoryQuery["cursor"]>,
): Promise<{ entries: HistoryEntry[]; next: boolean; prev: boolean }> {
  const { position } = cursor;
  const first = position?.values[0];
  const from = typeof first === "number" ? first : undefined;
  if (position?.direction === "prev") {
    // Newest first, one more than a page: the extra one, if any, is the newest and is left out.
    const read = await historyPage(sql, hash, { newerThan: from! }, query.perPage + 1);
    const more = read.length > query.perPage;
    return { entries: more ? read.slice(1) : read, next: true, prev: more };
  }
  const window = from === undefined ? { offset: 0 } : { olderThan: from };
  const read = await historyPage(sql, hash, window, query.perPage + 1);
  const more = read.length > query.perPage;
  return { entries: read.slice(0, query.perPage), next: more, prev: position !== null };
}
