// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ListSpec } from "../http/list-query.js";
import type { NestedReaders } from "../http/nested-access.js";
import type { JobQueue } from "../jobs/jobs.js";
import type { Memberships } from "../auth/memberships.js";
import type { LinkedCondition } from "../data/list-conditions.js";
import type { ExitGate, ExitSubject } from "./exits.js";
import type { Serializer } from "./serializer.js";
import type { FileAttachments } from "./file-attachments.js";
import type { ResourceService, StoredRow } from "./service.js";

/** A belongsToMany's own list: the records one row links to, and what each page's rows get added. */
export interface LinkedList<Row> {
  from: LinkedCondition["linkedFrom"];
  decorate(rows: Row[]): Promise<void>;
}

/** What a resource's controller is built with (see registry.ts). */
export interface ControllerContext<
  Model,
  Row extends StoredRow,
  Create extends object,
  Update extends object,
  P,
> {
  service: ResourceService<Model, Row, Create, Update>;
  policy: P;
  listSpec: ListSpec;
  /** Who may see the records each relation nests: their own resources' show rules. */
  nested: NestedReaders;
  serialize: Serializer;
  /** The gate every exit passes (exits.ts) and this resource's place in it: its history's. */
  exit?: { readonly gate: ExitGate; readonly subject: ExitSubject };
  /** hashapi.yaml's jobs, which onWrite may enqueue with a write. */
  jobs?: JobQueue;
  /** With tenancy: who works in which tenant, held under a lock by every write in one. */
  memberships?: Memberships;
  /** The resource's file fields: the uploads a payload names, attached by its write. */
  files?: FileAttachments;
}
