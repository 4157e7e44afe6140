// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import { sendData, sendMessage } from "../http/envelope.js";
import { mayShowResource, type NestedReader } from "../http/nested-access.js";
import { isForeignKeyViolation } from "../db/database.js";
import { Forbidden, NotFound } from "../base/errors.js";
import { pivotColumns, type ManyToManySpec } from "../data/relations/belongs-to-many.js";
import type { Sql } from "../db/sql.js";
import type { Table } from "../data/table.js";
import { actorOf } from "./actor.js";
import type { PayloadValidator } from "../base/validation.js";
import type { ResourceController } from "./controller.js";
import { PivotOutput, pivotOutput } from "./serializer.js";
import type { StoredRow } from "./service.js";

type AnyController = ResourceController<unknown, StoredRow, object, object>;

/** One belongsToMany of a resource, with what its routes need of both sides. */
export interface ManyToManyParts {
  readonly name: string;
  readonly relation: ManyToManySpec;
  readonly parent: AnyController;
  readonly parentTable: Table<unknown, StoredRow>;
  readonly target: AnyController;
  readonly targetTable: Table<unknown, StoredRow>;
  /** Who may show the related resource (its public show, show roles and scope). */
  readonly targetReader: NestedReader;
  /** The attach route's body: the pivot's fields. */
  readonly validateLink: PayloadValidator<Record<string, unknown>>;
}

/**
 * The routes of one belongsToMany (docs/api-contract.md §8 in hashapi): `GET /<c>/<h>/<relation>`
 * lists the linked records with the related resource's own list query (filters, sort, pages,
 * cursors) and each link's `pivot`; `PUT …/<relation>/<related>` links one (idempotent: linking
 * again rewrites the pivot values sent) and `DELETE` unlinks it (404 when they were not linked).
 * Reading needs `show` on the record and `index` on the related resource; linking and unlinking
 * need `update` on the record and `show` on the related one, within the caller's reach on both.
 */
export class ManyToManyController {
  private readonly pivot: ReturnType<typeof pivotOutput>;

  constructor(private readonly parts: ManyToManyParts) {
    this.pivot = pivotOutput(parts.relation);
  }

  async index(req: Request, res: Response): Promise<void> {
    const { parent, target, relation } = this.parts;
    const owner = await parent.authorizedRecord(req, String(req.params.hash), "show");
    await target.listed(req, res, {
      from: { relation, ownId: owner.id },
      decorate: (rows) => this.withLinkValues(owner.id, rows),
    });
  }

  /** Each record's link to `ownerId`, ready for output (the serializer writes it as `pivot`). */
  private async withLinkValues(ownerId: number, rows: readonly StoredRow[]): Promise<void> {
    const records = rows as unknown as Record<string, unknown>[];
    await this.parts.parentTable.withPivot(ownerId, this.parts.name, records);
    for (const record of records) {
      const values = this.pivot(record.pivot);
      if (values) record.pivot = new PivotOutput(values);
    }
  }

  async attach(req: Request, res: Response): Promise<void> {
    const { target, parentTable, targetTable, name } = this.parts;
    const [owner, related] = await this.pair(req);
    const body: unknown = req.body === undefined ? {} : req.body;
    const pivot = pivotColumns(this.parts.relation, this.parts.validateLink(body));
    await this.underLock(req, owner, related, (tx, ownerId, relatedId) =>
      parentTable
        .within(tx)
        .attach({ id: ownerId, hash: owner.hash }, name, { id: relatedId, pivot }, actorOf(req)),
    ).catch((error: unknown) => {
      if (isForeignKeyViolation(error)) throw new NotFound();
      throw error;
    });
    const record = await targetTable.findOne({
      id: related.id,
      deleted: false,
    });
    if (!record) throw new NotFound();
    await this.withLinkValues(owner.id, [record]);
    sendData(res, target.output(req, record));
  }

  async detach(req: Request, res: Response): Promise<void> {
    const { parentTable, name } = this.parts;
    const [owner, related] = await this.pair(req);
    const detached = await this.underLock(req, owner, related, (tx, ownerId, relatedId) =>
      parentTable
        .within(tx)
        .detach({ id: ownerId, hash: owner.hash }, name, relatedId, actorOf(req)),
    );
    if (!detached) throw new NotFound();
    sendMessage(res, "Resource detached.");
  }

  /**
   * Runs a link's write with both records locked live and within the caller's reach: the checks
   * pair() made are decided again under the lock, as a payload's links are, so a record reassigned
   * or deleted meanwhile is the 404 of a missing one and nothing is written.
   */
  private underLock<T>(
    req: Request,
    owner: StoredRow,
    related: StoredRow,
    write: (tx: Sql, ownerId: number, relatedId: number) => Promise<T>,
  ): Promise<T> {
    const { parent, target, parentTable, targetTable } = this.parts;
    return parentTable.sql.transaction(async (tx) => {
      const ownerId = await parentTable
        .within(tx)
        .liveId(owner.hash, "share", parent.scopeFor(req));
      const relatedId = await targetTable
        .within(tx)
        .liveId(related.hash, "share", target.scopeFor(req));
      if (ownerId === null || relatedId === null) throw new NotFound();
      return write(tx, ownerId, relatedId);
    });
  }

  /** The record (update allowed) and the related record (show allowed), or 404/403. */
  private async pair(req: Request): Promise<[StoredRow, StoredRow]> {
    const { parent, target, targetReader } = this.parts;
    const owner = await parent.authorizedRecord(req, String(req.params.hash), "update");
    if (!mayShowResource(targetReader, req.user)) throw new Forbidden();
    const related = await target.authorizedRecord(req, String(req.params.related), "show");
    return [owner, related];
  }
}
