// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { requireAuth } from "../http/authenticate.js";
import { Forbidden } from "../base/errors.js";
import type { AuthService } from "../auth/auth.service.js";
import { nestedReader, type NestedReader } from "../http/nested-access.js";
import type { ListSpec } from "../http/list-query.js";
import { userFieldValues, type UserFields } from "../auth/auth.service.js";
import {
  relationsOfKind,
  Table,
  tableLookup,
  type AnyTable,
  type TableSpec,
} from "../data/table.js";
import type { ControllerContext, ResourceController } from "./controller.js";
import type { ResourceDescriptor } from "./descriptor.js";
import type { Policy } from "./policy.js";
import type { RouteTable } from "../http/route-table.js";
import { ManyToManyController } from "./many-to-many.controller.js";
import { addManyToManyRoutes, addResourceRoutes } from "./routes.js";
import { createSerializer, type Serializer } from "./serializer.js";
import { FileAttachments } from "./file-attachments.js";
import { readingFiles } from "./file-bodies.js";
import { addUploadRoutes } from "./upload-routes.js";
import type { Files } from "../files/files.js";
import { ResourceService, type StoredRow } from "./service.js";
import { ResourcePolicy } from "./policy.js";
import { UsersController } from "./users/users.controller.js";
import {
  UsersService,
  type ManagedUser,
  type UserPayload,
  type UserRoles,
} from "./users/users.service.js";
import type { RetentionRule } from "../events/retention.js";
import type { JobQueue } from "../jobs/jobs.js";
import { ExitGate, type ExitSubject } from "./exits.js";
import { resourceSubject, unmanagedUsersSubject, type SubjectSource } from "./exit-subjects.js";
import { tenantColumnOf, type TenantSettings } from "./tenancy.js";
import { ownedPolicy, tenantPolicy } from "./nested-policies.js";

type AnyController = ResourceController<object, StoredRow, object, object, AnyPolicy>;
type AnyPolicy = Policy<StoredRow>;

/** A resource's controller class: the generated base, or the user's subclass of it in src/custom/. */
export type ControllerClass<
  Model,
  Row extends StoredRow,
  Create extends object,
  Update extends object,
  P,
> = new (context: ControllerContext<Model, Row, Create, Update, P>) => AnyController;

interface Entry {
  resource: ResourceDescriptor;
  policy: AnyPolicy;
  Controller: ControllerClass<object, StoredRow, object, object, AnyPolicy>;
}

/**
 * Wires every resource into the API: one service, serializer and controller each, sharing the
 * tables of the request context, and each relation's reader taken from the policy of the resource
 * it points at.
 */
export class ResourceRegistry {
  private readonly entries: Entry[] = [];
  private readonly tableOf: (spec: TableSpec) => AnyTable;
  private readonly serializers = new Map<TableSpec, Serializer>();
  private readonly exitSerializers = new Map<TableSpec, Serializer>();
  private readerCache?: Map<TableSpec, NestedReader>;
  private gate?: ExitGate;

  private managedUsers?: {
    resource: ResourceDescriptor<object, ManagedUser, UserPayload, UserPayload>;
    access: UserRoles;
  };

  /** The built-in users' table, when a resource may point at one (openTables' `users`). */
  private readonly users: TableSpec | undefined;

  constructor(
    /** openTables(db): every resource's table (and the raw `sql` handle, which is not one). */
    tables: Readonly<Record<string, unknown>>,
    private readonly auth: AuthService,
    /** Page sizes, and the cursors of cursor pagination. */
    private readonly pagination: Pick<ListSpec, "defaultPerPage" | "maxPerPage" | "cursors">,
    /** hashapi.yaml's jobs, which controllers may enqueue with a write (onWrite). */
    private readonly jobs?: JobQueue,
    /** hashapi.yaml's `storage:`, when a resource has file fields. */
    private readonly files?: Files,
  ) {
    this.tableOf = tableLookup(tables);
    const users = tables.users;
    this.users = users instanceof Table && users.spec.name === "users" ? users.spec : undefined;
    // A related user: its public id and name, and the project's user fields; never e-mail or role.
    if (this.users) this.serializers.set(this.users, userSerializer(auth.userFields));
  }

  add<
    Model,
    Row extends StoredRow,
    Create extends object,
    Update extends object,
    P extends Policy<Row>,
  >(
    resource: ResourceDescriptor<Model, Row, Create, Update>,
    policy: P,
    Controller: ControllerClass<Model, Row, Create, Update, P>,
  ): this {
    // Stored without their types: each entry is only ever used with its own resource.
    this.entries.push({
      resource,
      policy,
      Controller: Controller as unknown as Entry["Controller"],
    });
    if (resource.files) this.files?.addRules(resource.prefix, resource.table.name, resource.files);
    this.serializers.set(
      resource.table,
      createSerializer(resource, (table) => this.serializerOf(table), this.files),
    );
    // Every other exit (history, webhooks, handlers, jobs) shows a file's metadata, never a URL.
    this.exitSerializers.set(
      resource.table,
      resource.files
        ? createSerializer(resource, (table) => this.exitSerializerOf(table))
        : this.serializerOf(resource.table),
    );
    return this;
  }

  /**
   * /api/users (hashapi.yaml `auth.users.manage`): the built-in users as a resource for the roles
   * its declaration lists on every action. Related users keep their own short serializer.
   */
  manageUsers(resource: ResourceDescriptor<object, ManagedUser>, access: UserRoles): this {
    // The generated user payloads hold the built-in fields and the project's user fields: a
    // UserPayload's shape, declared as interfaces (which carry no index signature).
    const users = resource as ResourceDescriptor<object, ManagedUser, UserPayload, UserPayload>;
    this.managedUsers = { resource: users, access };
    return this;
  }

  /**
   * The one gate every exit passes (exits.ts): history, webhooks, handlers and what comes later
   * decide what each reader sees of a record from the same declarations the routes are built from.
   */
  exitGate(): ExitGate {
    const tenancy = this.auth.memberships?.settings;
    return (this.gate ??= new ExitGate(this.exitSubjects(), this.tableOf, tenancy));
  }

  private exitSubjects(): ExitSubject[] {
    const readers = this.readers();
    const sources = new Map<TableSpec, SubjectSource>(
      this.entries.map(({ resource, policy }) => [
        resource.table,
        {
          resource,
          policy,
          reader: readers.get(resource.table)!,
          serialize: this.exitSerializerOf(resource.table),
        },
      ]),
    );
    const subjects = [...sources.values()].map((source) =>
      resourceSubject(source, (table) => sources.get(table)),
    );
    const managed = this.managedUsers?.resource;
    if (managed)
      subjects.push(
        resourceSubject(
          {
            resource: managed,
            policy: new ResourcePolicy(),
            reader: { public: false, showRoles: managed.roles?.show ?? [] },
            serialize: createSerializer(managed, (spec) => this.serializerOf(spec)),
          },
          (table) => sources.get(table),
        ),
      );
    else if (this.users) subjects.push(unmanagedUsersSubject(this.users, this.auth.userFields));
    return subjects;
  }

  /**
   * How long the outbox keeps each resource's events (events/retention.ts): `audit.retainDays`, for
   * ever with `audit: true`, else `days` (EVENTS_RETAIN_DAYS), as the users' events.
   */
  retentionRules(days: number): RetentionRule[] {
    const rules: RetentionRule[] = [{ event: "user", days }];
    for (const { resource } of this.entries) {
      const kept = resource.audit ? resource.audit.retainDays : days;
      if (kept !== undefined) rules.push({ event: resource.table.event, days: kept });
    }
    return rules;
  }

  /** Adds each resource's routes at `<base>/<collection>` (base: /api). */
  addRoutes(routes: RouteTable, base: string): void {
    const readers = this.readers();
    const gate = this.exitGate();
    const controllers = new Map<TableSpec, AnyController>();
    for (const { resource, policy, Controller } of this.entries) {
      const nested = Object.fromEntries(
        Object.entries(resource.table.relations).map(([name, relation]) => [
          name,
          readers.get(relation.target())!,
        ]),
      );
      const attachments =
        this.files && resource.files
          ? new FileAttachments(this.files, resource.prefix, resource.files)
          : undefined;
      const controller = new Controller({
        service: new ResourceService(resource, this.tableOf(resource.table), this.tableOf),
        policy,
        listSpec: { ...resource.list, softDelete: resource.table.softDelete, ...this.pagination },
        nested,
        serialize: this.serializerOf(resource.table),
        exit: { gate, subject: gate.subjectWithPrefix(resource.prefix)! },
        ...(this.jobs ? { jobs: this.jobs } : {}),
        ...(this.auth.memberships ? { memberships: this.auth.memberships } : {}),
        ...(attachments ? { files: attachments } : {}),
      });
      const tenanted = tenantRoutesOf(resource.tenant);
      addResourceRoutes(routes, `${base}/${resource.collection}`, controller, this.auth, {
        ...(tenanted ? { tenanted } : {}),
        collection: resource.collection,
        publicActions: resource.publicActions ?? [],
        roles: resource.roles ?? {},
        softDelete: resource.table.softDelete,
        ...(resource.audit ? { history: (req, res) => controller.history(req, res) } : {}),
        ...(attachments
          ? { files: (act) => readingFiles(attachments, this.files!, this.auth.requestLimits, act) }
          : {}),
      });
      controllers.set(resource.table, controller);
    }
    this.addLinkRoutes(routes, base, controllers, readers);
    const resources = this.entries.map((entry) => entry.resource);
    if (this.files) addUploadRoutes(routes, base, this.auth, this.files, resources);
    if (this.managedUsers) this.addUserRoutes(routes, base, this.managedUsers);
  }

  /** Who may show each resource's records: in responses that nest them, and at every exit. */
  private readers(): Map<TableSpec, NestedReader> {
    if (this.readerCache) return this.readerCache;
    const readers = new Map<TableSpec, NestedReader>(
      this.entries.map(({ resource, policy }) => [
        resource.table,
        nestedReader(
          (resource.publicActions ?? []).includes("show"),
          tenantPolicy(ownedPolicy(policy, resource, this.tableOf), resource.tenant),
          resource.roles?.show,
          policy.show === ResourcePolicy.prototype.show,
        ),
      ]),
    );
    // Any signed-in caller may see who a record points at; anonymous callers may not.
    if (this.users) readers.set(this.users, { public: false });
    return (this.readerCache = readers);
  }

  /** Each belongsToMany's routes, once every resource's controller exists. */
  private addLinkRoutes(
    routes: RouteTable,
    base: string,
    controllers: ReadonlyMap<TableSpec, AnyController>,
    readers: ReadonlyMap<TableSpec, NestedReader>,
  ): void {
    const descriptors = new Map(this.entries.map(({ resource }) => [resource.table, resource]));
    for (const { resource } of this.entries)
      for (const [name, relation] of relationsOfKind(resource.table, "belongsToMany")) {
        const target = descriptors.get(relation.target())!;
        const controller = new ManyToManyController({
          name,
          relation,
          parent: controllers.get(resource.table)!,
          parentTable: this.tableOf(resource.table),
          target: controllers.get(target.table)!,
          targetTable: this.tableOf(target.table),
          targetReader: readers.get(target.table)!,
          validateLink: resource.validateLink[name]!,
        });
        addManyToManyRoutes(
          routes,
          `${base}/${resource.collection}/:hash/${name}`,
          controller,
          this.auth,
          {
            publicRead:
              (resource.publicActions ?? []).includes("show") &&
              (target.publicActions ?? []).includes("index"),
            readRoles: [resource.roles?.show, target.roles?.index],
            writeRoles: [resource.roles?.update, target.roles?.show],
            tenanted: tenantColumnOf(resource.tenant) !== undefined,
          },
        );
      }
  }

  private addUserRoutes(
    routes: RouteTable,
    base: string,
    { resource, access }: NonNullable<ResourceRegistry["managedUsers"]>,
  ): void {
    const table = this.tableOf(resource.table) as Table<object, ManagedUser>;
    // With mail: a manager starts a reset (the user chooses the password), never sets another's.
    const mails = access.startReset !== undefined;
    const controller = new UsersController(
      {
        service: new UsersService(resource, table, this.tableOf, {
          ...access,
          ...(this.auth.memberships ? { memberships: this.auth.memberships } : {}),
        }),
        policy: new ResourcePolicy<ManagedUser>(),
        listSpec: { ...resource.list, softDelete: false, ...this.pagination },
        nested: {},
        serialize: createSerializer(resource, (spec) => this.serializerOf(spec)),
      },
      access,
    );
    addResourceRoutes(routes, `${base}/${resource.collection}`, controller, this.auth, {
      collection: resource.collection,
      publicActions: [],
      roles: resource.roles ?? {},
      softDelete: false,
    });
    if (mails)
      routes.add(`${base}/${resource.collection}/:hash/password-reset`, {
        // The managing roles only, as every other action of /api/users.
        post: requireAuth(this.auth, (req, res) => {
          if (!(resource.roles?.update ?? []).includes(req.user!.role)) throw new Forbidden();
          return controller.startReset(req, res);
        }),
      });
  }

  private exitSerializerOf(spec: TableSpec): Serializer {
    return this.exitSerializers.get(spec) ?? this.serializerOf(spec);
  }

  private serializerOf(spec: TableSpec): Serializer {
    const serializer = this.serializers.get(spec);
    if (!serializer) throw new Error(`No resource serializes ${spec.name}`);
    return serializer;
  }
}

/** How a resource's routes work in tenants: not at all, as a tenant's records, or as the tenants. */
function tenantRoutesOf(settings: TenantSettings | undefined): "records" | "tenants" | undefined {
  const column = tenantColumnOf(settings);
  if (column === undefined) return undefined;
  return column === "id" ? "tenants" : "records";
}

/** A related user as output: `{ hash, name }` and the project's user fields. */
function userSerializer(fields: UserFields): Serializer {
  return (record) => {
    const { hash, name } = record as { hash: string; name: string };
    return { hash, name, ...userFieldValues(fields, record) };
  };
}
