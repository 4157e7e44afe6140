// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import { sendData, sendList, sendMessage } from "../http/envelope.js";
import {
  parseListQuery,
  parseRelationsQuery,
  type ListQuery,
  type ListSpec,
} from "../http/list-query.js";
import {
  assertMayRead,
  loadableRelations,
  linkScopes,
  type NestedReaders,
} from "../http/nested-access.js";
import { cursorPaginate, paginate } from "../http/pagination.js";
import { ValidationFailed } from "../base/errors.js";
import { authorized } from "./authorized.js";
import { relationOfKind } from "../data/table.js";
import { fieldAccess, payloadWriters, type FieldAccess } from "./field-access.js";
import { actorOf } from "./actor.js";
import { afterAnswer } from "./after-answer.js";
import type { JobQueue } from "../jobs/jobs.js";
import { committingRule, type CommittingWrite } from "./committing.js";

export type { CommittingWrite };
import type { ControllerContext, LinkedList } from "./controller-context.js";
import { pageCursors } from "./cursor-keys.js";
import { sendHistory } from "./history.js";
import { addReferenceProblems } from "./write-errors.js";
import { bothScopes, ownerScope } from "./ownership.js";
import { tenantScope } from "./tenancy.js";
import { newTenantRule, tenantWriteRule } from "./tenant-writes.js";
import { filedWrite, plannedWrite, type WritePlanning } from "./planned-write.js";
import type { Policy } from "./policy.js";
import { updatesByHash, updatesWithoutRecord } from "./unread-update.js";
import type { Serializer } from "./serializer.js";
import type { Reach, RecordRules, ResourceService, StoredRow, WriteRules } from "./service.js";

export type { ControllerContext, LinkedList };

/**
 * The actions of one resource. A resource's controller in src/custom/ extends it (through the
 * generated `<Name>ControllerBase`) and overrides an action, or one of the hooks, which run after
 * the policy and before the payload is read. Order of checks in every action: 401 (token; also a
 * relation an anonymous caller may not nest), 404 (route parameter), 403 (policy, hook, then the
 * related resources' show policies for every nested record), 422 (payload).
 */
export class ResourceController<
  Model,
  Row extends StoredRow,
  Create extends object,
  Update extends object,
  P extends Policy<Row> = Policy<Row>,
> {
  protected readonly service: ResourceService<Model, Row, Create, Update>;
  protected readonly policy: P;
  protected readonly listSpec: ListSpec;
  protected readonly nested: NestedReaders;
  protected readonly serialize: Serializer;
  private readonly exit: ControllerContext<Model, Row, Create, Update, P>["exit"];
  private readonly jobs: JobQueue | undefined;
  /** What plans a write's payload and rules, its tenant's too (planned-write.ts). */
  private readonly writes: WritePlanning;
  /** A subclass overrides onWrite: writes then call it in their transaction. */
  private readonly writesCommitting: boolean;
  /** No code a project may override around an update looks at the record first: see updatedUnread. */
  private readonly updatesUnread: boolean;
  /** Which fields each role sees and may send (visibleTo, writableBy). */
  protected readonly fields: FieldAccess;
  /** Some related resource's policy has a scope, which its nested records obey. */
  private readonly nestedScopes: boolean;

  constructor(context: ControllerContext<Model, Row, Create, Update, P>) {
    this.service = context.service;
    this.policy = context.policy;
    this.listSpec = context.listSpec;
    this.nested = context.nested;
    this.serialize = context.serialize;
    this.exit = context.exit;
    this.jobs = context.jobs;
    const tenantWrites = { resource: context.service.resource, memberships: context.memberships };
    const linking = (req: Request, payload: object) => this.linking(req, payload);
    this.writes = { tenantWrites, linking, files: context.files };
    this.writesCommitting = this.onWrite !== ResourceController.prototype.onWrite;
    this.updatesUnread = updatesWithoutRecord(this, ResourceController.prototype, context);
    const resource = context.service.resource;
    this.fields = fieldAccess(resource.visibleTo, payloadWriters(resource), context.listSpec);
    this.nestedScopes = Object.values(context.nested).some((reader) => reader.scope !== undefined);
  }

  /** Before a record is created, after the policy allowed it: throw to refuse (e.g. `Forbidden`). */
  protected beforeCreate(_req: Request): void | Promise<void> {}

  /** Before a record is updated, after the policy allowed it: throw to refuse. */
  protected beforeUpdate(_req: Request, _record: Row): void | Promise<void> {}

  /** Before a record is deleted, after the policy allowed it: throw to refuse. */
  protected beforeDestroy(_req: Request, _record: Row): void | Promise<void> {}

  /**
   * After a create, update, delete or restore committed and was answered (never after a rollback):
   * cannot change the answer; what it throws is logged. Work that must not be lost belongs in
   * src/custom/events.ts (durable, retried); these run once, in this process.
   */
  protected afterCreate(_req: Request, _record: Row): void | Promise<void> {}
  protected afterUpdate(_req: Request, _record: Row): void | Promise<void> {}
  /** `record` as it was read before the delete. */
  protected afterDestroy(_req: Request, _record: Row): void | Promise<void> {}
  protected afterRestore(_req: Request, _record: Row): void | Promise<void> {}

  /**
   * In a create, update, delete or restore's own transaction, after the record and its events are
   * written and before the commit: what must happen with the write or not at all, such as a job
   * (`write.jobs.enqueue("send-welcome", { candidate: write.record.hash })`) or a row of your own
   * (`write.sql`). What it throws rolls the write back and is answered as any error of the action.
   */
  protected onWrite(_req: Request, _write: CommittingWrite<Row>): void | Promise<void> {}

  /** The rule that calls onWrite in a write's transaction, when a subclass has one. */
  private committing(
    req: Request,
    action: CommittingWrite<Row>["action"],
  ): Pick<WriteRules, "committing"> {
    if (!this.writesCommitting) return {};
    const onWrite = (write: CommittingWrite<Row>) => this.onWrite(req, write);
    return committingRule<Row>(action, this.jobs, onWrite, this.service.resource.table);
  }

  /** Nothing unless `allowed`; else 403, or 401 to an anonymous caller (authorized.ts). */
  protected authorize(allowed: boolean | Promise<boolean>, req?: Request): void | Promise<void> {
    return authorized(allowed, req);
  }

  /** What the caller may reach: the policy's scope here, and each nested resource's own. */
  protected reach(req: Request): Reach {
    const { owner, tenant } = this.service.resource;
    const owned = bothScopes(ownerScope(owner, req.user), tenantScope(tenant, req.user));
    const scope = bothScopes(this.policy.scope?.(req.user), owned);
    if (!this.nestedScopes) return scope ? { scope } : {};
    const nested = this.nested;
    const scopeOf = (relation: string) => nested[relation]?.scope?.(req.user);
    return scope ? { scope, scopeOf } : { scopeOf };
  }

  /**
   * What the write of an existing record decides again under its lock: the caller's reach (a record
   * that left it since it was read is the 404 of a missing one) and `lockedRule`; and onWrite.
   */
  private recordRules(req: Request, action: "update" | "delete" | "restore"): RecordRules {
    const { scope } = this.reach(req);
    const locked = this.lockedRule(req);
    return {
      ...(scope ? { reach: scope } : {}),
      ...(locked ? { locked } : {}),
      ...this.committing(req, action),
      ...tenantWriteRule(this.writes.tenantWrites, req, action === "delete" ? "destroy" : action),
      actor: actorOf(req),
    };
  }

  /**
   * A rule on the record as locked for an update, delete or restore (its stored columns), for
   * checks that must hold at the write rather than at the read before it: throw to refuse.
   */
  protected lockedRule(_req: Request): RecordRules["locked"] {
    return undefined;
  }

  /** The relations a response nests (eager and requested), refused at once to a caller who may not see them. */
  protected relations(req: Request, requested: readonly string[] = []): string[] {
    return loadableRelations(
      this.nested,
      this.service.resource.eagerLoad ?? [],
      requested,
      req.user,
    );
  }

  index(req: Request, res: Response): Promise<void> {
    return this.listed(req, res);
  }

  /**
   * A list: the index, or the records another record links to (`linked`, a belongsToMany's own
   * route), each page's rows `decorate`d before they are output (with their pivot values).
   */
  async listed(req: Request, res: Response, linked?: LinkedList<Row>): Promise<void> {
    const parsed = parseListQuery(req, this.fields.listSpecFor(req.user?.role));
    // A verdict given at once is not awaited: an await costs a turn of the queue.
    const authorizing = this.authorize(this.policy.index(req.user, parsed), req);
    if (authorizing) await authorizing;
    const relations = this.relations(req, parsed.relations);
    const query = linked
      ? {
          ...parsed,
          relations,
          where: [...parsed.where, { linkedFrom: linked.from }],
        }
      : { ...parsed, relations };
    if (query.cursor)
      return this.cursorIndex(req, res, { ...query, cursor: query.cursor }, linked?.decorate);
    // Rows only the serializer reads (no decorating, no nested show policy of a project's own)
    // are read for output: their dates stay as stored.
    const forOutput =
      linked === undefined &&
      relations.every((relation) => this.nested[relation]?.mayShow === undefined);
    const { rows, total } = await this.service.list(query, this.reach(req), forOutput);
    if (linked) await linked.decorate(rows);
    const reading = assertMayRead(this.nested, rows, relations, req.user);
    if (reading) await reading;
    const { links, meta } = paginate(req, query.page, query.perPage, total, rows.length);
    sendList(
      res,
      rows.map((row) => this.serialize(row, relations, req.user?.role)),
      links,
      meta,
    );
  }

  /** A list in cursor mode (`?cursor=`): the page, and the cursors of the pages beside it. */
  private async cursorIndex(
    req: Request,
    res: Response,
    query: ListQuery & { cursor: NonNullable<ListQuery["cursor"]> },
    decorate?: LinkedList<Row>["decorate"],
  ): Promise<void> {
    const { rows, more } = await this.service.cursorPage(query, this.reach(req));
    await decorate?.(rows);
    await assertMayRead(this.nested, rows, query.relations, req.user);
    const { next, prev } = pageCursors(query, rows, more, this.listSpec.cursors!, (row) =>
      this.service.cursorOf(query.orderBy, row),
    );
    const { links, meta } = cursorPaginate(req, query.perPage, { next, prev });
    sendList(
      res,
      rows.map((row) => this.serialize(row, query.relations, req.user?.role)),
      links,
      meta,
    );
  }

  async store(req: Request, res: Response): Promise<void> {
    await this.authorize(this.policy.store(req.user), req);
    await this.beforeCreate(req);
    const relations = this.relations(req);
    const valid = await this.validated(req, () => this.service.resource.validate.create(req.body));
    const planned = await filedWrite(this.writes, req, valid, true);
    const { committing } = this.committing(req, "create");
    const tenant = newTenantRule(this.writes.tenantWrites, req, committing);
    const rules = { ...planned.rules, committing, ...tenant, actor: actorOf(req) };
    const created = await this.service.create(planned.payload, relations, rules);
    await assertMayRead(this.nested, [created], relations, req.user);
    sendData(res, this.serialize(created, relations, req.user?.role), 201);
    afterAnswer(req, () => this.afterCreate(req, created));
  }

  async show(req: Request, res: Response): Promise<void> {
    const relations = this.relations(req, parseRelationsQuery(req, this.listSpec.relations));
    const row = await this.service.find(String(req.params.hash), relations, this.reach(req));
    await this.authorize(this.policy.show(req.user, row), req);
    await assertMayRead(this.nested, [row], relations, req.user);
    sendData(res, this.serialize(row, relations, req.user?.role));
  }

  async update(req: Request, res: Response): Promise<void> {
    const relations = this.relations(req);
    const updated =
      (await this.updatedUnread(req, relations)) ?? (await this.updatedAfterRead(req, relations));
    await assertMayRead(this.nested, [updated], relations, req.user);
    sendData(res, this.serialize(updated, relations, req.user?.role));
    afterAnswer(req, () => this.afterUpdate(req, updated));
  }

  /** An update as the other writes go: the record read (404), the policy and hook, the payload, the write. */
  private async updatedAfterRead(req: Request, relations: readonly string[]): Promise<Row> {
    const row = await this.service.find(String(req.params.hash), relations, this.reach(req));
    await this.authorize(this.policy.update(req.user, row), req);
    await this.beforeUpdate(req, row);
    const validate = () => this.service.resource.validate.update(req.body);
    const valid = await this.validated(req, validate, row.id);
    const planned = await filedWrite(this.writes, req, valid, false);
    const rules = { ...planned.rules, ...this.recordRules(req, "update") };
    return this.service.update(row, planned.payload, relations, rules);
  }

  /**
   * An update that reads nothing first where nothing decides on the record before its write (see
   * updatesWithoutRecord, updatesByHash): its write finds and locks it by hash, a round trip fewer
   * (ResourceService.updateUnread). Undefined, nothing written, when the payload is refused: the
   * update after a read then answers as it always did, a missing record's 404 first.
   */
  private async updatedUnread(req: Request, relations: readonly string[]) {
    if (!this.updatesUnread || this.writes.files) return undefined;
    let planned: { payload: Update; rules: WriteRules };
    try {
      const valid = this.service.resource.validate.update(req.body);
      this.fields.assertWritable(req.user?.role, req.body);
      planned = plannedWrite(this.writes, req, valid, false);
    } catch {
      return undefined;
    }
    const rules = { ...planned.rules, ...this.recordRules(req, "update") };
    if (!updatesByHash(rules)) return undefined;
    return this.service.updateUnread(String(req.params.hash), planned.payload, relations, rules);
  }

  async destroy(req: Request, res: Response): Promise<void> {
    const row = await this.service.find(String(req.params.hash), [], this.reach(req));
    await this.authorize(this.policy.destroy(req.user, row), req);
    await this.beforeDestroy(req, row);
    await this.service.destroy(row, this.recordRules(req, "delete"));
    sendMessage(res, "Resource deleted.");
    afterAnswer(req, () => this.afterDestroy(req, row));
  }

  async restore(req: Request, res: Response): Promise<void> {
    const relations = this.relations(req);
    const row = await this.service.findTrashed(String(req.params.hash), relations, this.reach(req));
    await this.authorize(this.policy.restore?.(req.user, row) ?? true, req);
    const restored = await this.service.restore(row, relations, this.recordRules(req, "restore"));
    await assertMayRead(this.nested, [restored], relations, req.user);
    sendData(res, this.serialize(restored, relations, req.user?.role));
    afterAnswer(req, () => this.afterRestore(req, restored));
  }

  /** The record's events (resources with `audit`): readable by whoever may show it, trashed or not (history.ts). */
  async history(req: Request, res: Response): Promise<void> {
    if (this.exit === undefined) throw new Error("A history route needs the exit gate");
    await sendHistory(req, res, {
      sql: this.service.table.sql,
      listSpec: this.fields.listSpecFor(req.user?.role),
      ...this.exit,
      record: async (request) => {
        const row = await this.service.findEither(String(request.params.hash), this.reach(request));
        await this.authorize(this.policy.show(request.user, row), request);
        return row;
      },
    });
  }

  /** What linking the records a payload names (belongsToMany) takes: see linkScopes. */
  protected linking(req: Request, payload: object): Pick<WriteRules, "links"> {
    const names = Object.keys(payload).filter((key) =>
      relationOfKind(this.service.resource.table, key, "belongsToMany"),
    );
    return names.length === 0 ? {} : { links: linkScopes(this.nested, names, req.user) };
  }

  /** The caller's reach on this resource (its policy's scope and ownership), for a write to check under its lock. */
  scopeFor(req: Request): Reach["scope"] {
    return this.reach(req).scope;
  }

  /** A record the caller may show or update (404 out of reach, 403 refused): a relation route's parent or target. */
  async authorizedRecord(req: Request, hash: string, action: "show" | "update"): Promise<Row> {
    const row = await this.service.find(hash, [], this.reach(req));
    await this.authorize(
      action === "show" ? this.policy.show(req.user, row) : this.policy.update(req.user, row),
      req,
    );
    return row;
  }

  /** One record as this caller sees it. */
  output(req: Request, row: Row, relations: readonly string[] = []): Record<string, unknown> {
    return this.serialize(row, relations, req.user?.role);
  }

  /**
   * Validates the request's payload; on failure, also reports what the database would (unique
   * values already taken, like Laravel, and related records unknown or out of the caller's reach)
   * and fields the caller's role may not send ("prohibited"), all in one 422.
   */
  protected async validated<T extends object>(
    req: Request,
    validate: () => T,
    exceptId?: number,
  ): Promise<T> {
    const role = req.user?.role;
    let payload: T;
    try {
      payload = validate();
    } catch (error) {
      const { tenant } = tenantWriteRule(this.writes.tenantWrites, req, "update");
      const failed = await this.service.withUniqueErrors(error, req.body, exceptId, tenant);
      if (failed instanceof ValidationFailed) {
        await addReferenceProblems(failed, req.body, (rest) => {
          const planned = plannedWrite(this.writes, req, rest, exceptId === undefined);
          return this.service.referenceProblems(planned.payload, planned.rules);
        });
        this.fields.assertWritable(role, req.body, failed);
      }
      throw failed;
    }
    this.fields.assertWritable(role, req.body);
    return payload;
  }
}
