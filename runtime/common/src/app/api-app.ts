// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { startDispatcher, type DispatcherOptions } from "../events/dispatcher.js";
import { JobQueue } from "../jobs/jobs.js";
import {
  AccountMails,
  type AccountMailJob,
  type AccountMailSettings,
  type AccountMailTemplates,
} from "../accounts/account-mails.js";
import type { AccountsService, AccountSettings } from "../accounts/accounts.service.js";
import { addIdentityRoutes } from "./identity-routes.js";
import { addAdminManifestRoute, serveAdminPages } from "../admin/admin-routes.js";
import type { AdminManifestJson } from "../admin/admin-manifest.js";
import type { UserRoles } from "../resource/users/users.service.js";
import { mailJobHandler, mailJobName, mailJobSettings } from "../jobs/mail-job.js";
import type { MailTransport } from "../mail/transport.js";
import { startJobWorker } from "../jobs/worker.js";
import { addDeliveryRoutes, addJobRoutes } from "../resource/background-routes.js";
import type { BackgroundWork } from "./background-thread.js";
import { handlerReceivers, type EventHandlers } from "../events/handlers.js";
import { hearEventsOf } from "../data/event-hearing.js";
import type { Webhook } from "../events/webhooks.js";
import type { TenancySettings } from "../auth/memberships.js";
import { recordTenantsOfEvents } from "../data/outbox.js";
import express, { type Express, type Request, type RequestHandler } from "express";
import { filesOf, streamedBodies, withFileJobs } from "./file-parts.js";
import type { StorageConfig } from "../files/storage-settings.js";
import { AuthService, type UserFields } from "../auth/auth.service.js";
import { LoginThrottle } from "../auth/login-throttle.js";
import { Revocations } from "../auth/revocations.js";
import { Sessions } from "../auth/sessions.js";
import { SecondFactor, type MfaSettings } from "../auth/second-factor.js";
import { SecretBox } from "../auth/secret-box.js";
import { requestLimitsShared, type Database } from "../db/database.js";
import type { Logger } from "../base/logger.js";
import type { JwtSettings } from "../base/tokens.js";
import { eventReaders } from "../resource/exits.js";
import { ResourceRegistry } from "../resource/registry.js";
import { applyCors } from "../http/cors.js";
import { CursorCodec } from "../http/cursor.js";
import type { TrustProxy } from "../http/deployment.js";
import { errorHandler } from "../http/error-handler.js";
import { health, liveness, readiness } from "../http/health.js";
import { jsonBody } from "../http/json-body.js";
import { RequestLimits, type RequestLimitRules } from "../http/request-limits.js";
import { metricsRoute } from "../http/metrics-route.js";
import { checkHost, providePublicOrigin } from "../http/public-origin.js";
import { provideParsedQuery, provideRequestLog, startRequest } from "../http/request-context.js";
import { notFound, RouteTable } from "../http/route-table.js";

/** The settings the API reads (the project's Config has these and more). */
export interface ApiSettings {
  appUrl: string | undefined;
  /** Which proxies are believed about the client's address (TRUST_PROXY, see deployment.ts). */
  trustProxy: TrustProxy;
  /** Origins whose browser scripts may call the API (CORS_ORIGINS); none by default. */
  corsOrigins: readonly string[];
  jwt: JwtSettings;
  bodyLimit: string;
  pagination: { defaultPerPage: number; maxPerPage: number };
  /** hashapi.yaml's and the resources' `rateLimit` (http/request-limits.ts); undefined: none. */
  rateLimit: RequestLimitRules | undefined;
  /** METRICS_PORT or METRICS_TOKEN (app/production-settings.ts); unset: nothing is measured. */
  metrics: { port: number } | { token: string } | undefined;
  /** EVENTS_RETAIN_DAYS: how long events of resources without `audit` are kept (events/retention.ts). */
  eventsRetainDays: number;
  /** hashapi.yaml's webhooks, read from the environment; `role` reads and retries their deliveries. */
  webhooks: {
    receivers: readonly Webhook[];
    role: string;
    timeoutMs: number;
    retryBaseMs: number;
    /** In production, a receiver on plain http is said at start-up (its events travel unencrypted). */
    warnPlainHttp: boolean;
  };
}

/** The API to serve, and what runs beside it (app/service.ts starts that; tests do not). */
export interface ApiApp {
  readonly app: Express;
  readonly background: BackgroundWork;
}

export interface ApiParts {
  settings: ApiSettings;
  db: Database;
  logger: Logger;
  /** Every resource's table, given to the runtime and to custom code as `req.tables`. */
  tables: Readonly<Record<string, unknown>>;
  /** src/admin/admin.json: the back office at /admin and its per-role manifest. */
  admin?: AdminManifestJson;
  /** openapi.json as text, served at /api/openapi.json and rendered at /api/docs. */
  openapiText: string;
  /** The reference page's title. */
  title: string;
  /** Where this build's migrations are, for the health check. */
  migrationsDir: string;
  /** The project's own user fields (hashapi.yaml auth.user.fields). */
  userFields?: UserFields;
  /** /api/users, when hashapi.yaml's `auth.users.manage` asks for it (src/resources/user/user.resource.ts). */
  users?: Parameters<ResourceRegistry["manageUsers"]>;
  /** Adds the project's resources. */
  resources: (registry: ResourceRegistry) => void;
  /** src/custom/events.ts: code run after commit for the events it names (lib/events/handlers.ts). */
  handlers?: EventHandlers;
  /** hashapi.yaml's jobs and schedules with their code, src/custom/jobs/<name>.ts (jobs/). */
  jobs?: JobQueue;
  /** hashapi.yaml's `mail:`: how mail leaves, and the account mails' templates (src/custom/mail/). */
  mail?: MailParts;
  /** hashapi.yaml's `auth.signup` and `auth.passwords`: the account flows (they need `mail`). */
  accounts?: AccountSettings;
  /** hashapi.yaml's `auth.mfa`: two-factor authentication (auth/second-factor.ts). */
  mfa?: MfaSettings;
  /** hashapi.yaml's `tenancy`: many organizations in one service (auth/memberships.ts). */
  tenancy?: TenancySettings;
  /** hashapi.yaml's `storage:` with the resources' file fields (files/): where their bytes go. */
  storage?: StorageConfig;
  /** The collections of the resources with file fields, whose writes may be multipart. */
  fileCollections?: readonly string[];
}

/** What sending mail needs, read at start-up (the generated src/config.ts and src/mail.ts). */
export interface MailParts {
  readonly transport: MailTransport;
  readonly from: string;
  readonly templates: AccountMailTemplates;
  readonly settings: AccountMailSettings;
}

/**
 * The whole API as an Express app, without listening. One middleware prepares every request
 * (request id, Host, JSON body), one route table answers the API's routes, Express serves the
 * reference page's files, and everything else is a 404 in the envelope.
 */
export function createApiApp(apiParts: ApiParts): ApiApp {
  const mailed = withMailJob(apiParts);
  const { settings, db, logger, tables } = mailed;
  const files = mailed.storage ? filesOf(mailed.storage, db, settings) : undefined;
  const parts = files ? { ...mailed, jobs: withFileJobs(mailed.jobs, files) } : mailed;
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", "simple");
  // req.ip: the socket's address, or the one a trusted proxy reports (never a forwarded header otherwise).
  app.set("trust proxy", settings.trustProxy);
  provideRequestLog(app, logger);
  provideParsedQuery(app);
  providePublicOrigin(app, settings.appUrl);
  // Set once on the app's request prototype: every request sees the same tables.
  Object.assign(app.request, { tables });

  const auth = identityOf(parts);
  const routes = new RouteTable()
    .add("/api/health", { get: health(db, parts.migrationsDir) })
    .add("/api/health/live", { get: liveness })
    .add("/api/health/ready", { get: readiness(db, parts.migrationsDir) })
    .add("/api/openapi.json", {
      get: (_req, res) => void res.type("application/json").send(parts.openapiText),
    });
  const { metrics } = settings;
  if (metrics && "token" in metrics) routes.add("/metrics", { get: metricsRoute(metrics.token) });
  const accounts = addIdentityRoutes(routes, parts, auth);
  const registry = new ResourceRegistry(
    tables,
    auth,
    { ...settings.pagination, cursors: new CursorCodec(settings.jwt.key) },
    parts.jobs,
    files,
  );
  parts.resources(registry);
  if (parts.users) registry.manageUsers(parts.users[0], withResets(parts.users[1], accounts));
  registry.addRoutes(routes, "/api");
  addBackgroundRoutes(routes, parts, auth);
  if (parts.admin) addAdminManifestRoute(routes, auth, parts.admin);
  const streamed = streamedBodies("/api", files ? (parts.fileCollections ?? []) : []);
  app.use(preparingRequests(settings, logger, streamed));
  app.use(routes.middleware());
  app.use("/api/docs", referencePage(parts.openapiText, parts.title));
  if (parts.admin) serveAdminPages(app, bucketOrigin(parts.storage));
  app.use(notFound);
  app.use(errorHandler);
  return { app, background: backgroundWork(parts, registry) };
}

/**
 * Who calls: the users, their sessions and second factor, their tenants (hashapi.yaml `tenancy`,
 * whose events then carry their record's tenant), and the request limits counted per caller.
 */
function identityOf(parts: ApiParts): AuthService {
  const { settings, db, logger } = parts;
  if (parts.tenancy) recordTenantsOfEvents();
  const auth = new AuthService(
    db,
    settings.jwt,
    new Revocations(db),
    new LoginThrottle(db),
    new Sessions(db),
    parts.userFields,
    parts.mfa
      ? new SecondFactor(db, new SecretBox(settings.jwt.key), parts.mfa, parts.title)
      : undefined,
    parts.tenancy,
  );
  if (RequestLimits.declared(settings.rateLimit))
    auth.requestLimits = new RequestLimits(
      settings.rateLimit,
      requestLimitsShared ? { database: db } : "process",
      logger,
    );
  return auth;
}

/** A bucket's origin, where file fields' URLs point (AWS's own hosts without an endpoint). */
function bucketOrigin(storage: StorageConfig | undefined): string | undefined {
  if (storage?.choice.driver !== "s3") return undefined;
  const { endpoint } = storage.choice.s3;
  if (!endpoint) return "https://*.amazonaws.com";
  return URL.canParse(endpoint) ? new URL(endpoint).origin : undefined;
}

/** With mail, /api/users starts resets (counted as every mail of the account routes). */
function withResets(access: UserRoles, accounts: AccountsService | undefined): UserRoles {
  if (!accounts) return access;
  return { ...access, startReset: (email, client) => accounts.startReset(email, client) };
}

/** The routes of the deliveries (with webhooks) and of the jobs (with jobs), for the first role. */
function addBackgroundRoutes(routes: RouteTable, parts: ApiParts, auth: AuthService): void {
  const { settings, db } = parts;
  const { receivers, role } = settings.webhooks;
  const common = { role, sql: db, pagination: settings.pagination };
  if (receivers.length > 0)
    addDeliveryRoutes(routes, "/api", auth, {
      ...common,
      webhooks: receivers.map((receiver) => receiver.name),
    });
  if (parts.jobs && parts.jobs.jobNames.length > 0)
    addJobRoutes(routes, "/api", auth, { ...common, names: parts.jobs.jobNames });
}

/** The dispatcher of events and webhooks, and the retention of events, for app/service.ts to start. */
function backgroundWork(parts: ApiParts, registry: ResourceRegistry): BackgroundWork {
  const { settings, db } = parts;
  const { receivers, timeoutMs, retryBaseMs } = settings.webhooks;
  const handlers = handlerReceivers(parts.handlers ?? {});
  // Before any request writes: an event none of them hears is written settled (data/event-hearing.ts).
  hearEventsOf([...receivers, ...handlers]);
  const readers = eventReaders(registry.exitGate());
  return {
    eventRetention: registry.retentionRules(settings.eventsRetainDays),
    watched: {
      receivers: [...receivers, ...handlers].map((receiver) => receiver.name),
      jobs: (parts.jobs?.jobNames.length ?? 0) > 0,
    },
    startJobs: (log) =>
      parts.jobs && parts.jobs.jobNames.length > 0
        ? startJobWorker({
            sql: db,
            queue: parts.jobs,
            logger: log,
            read: (hash, tenant) => readers.read(hash, tenant),
            retryBaseMs,
            retainDays: settings.eventsRetainDays,
          })
        : undefined,
    startDispatcher: (log) => {
      for (const receiver of receivers)
        if (settings.webhooks.warnPlainHttp && receiver.url.protocol === "http:")
          log.warn(
            { webhook: receiver.name },
            "this webhook's URL is plain http: its events travel unencrypted",
          );
      return startDispatcher({
        sql: db,
        webhooks: receivers,
        handlers,
        readers,
        ...(parts.jobs
          ? { writeJobs: writeJobsOf(parts.jobs), jobNames: parts.jobs.jobNames }
          : {}),
        logger: log,
        timeoutMs,
        retryBaseMs,
      });
    },
  };
}

/**
 * The parts with hashapi's own mail job added to the project's jobs when hashapi.yaml declares
 * `mail:` (jobs/mail-job.ts): mail is sent by the job worker, which then runs even in a project
 * that declares no job of its own.
 */
function withMailJob(parts: ApiParts): ApiParts {
  const { mail } = parts;
  if (!mail) return parts;
  const accountMails = new AccountMails(parts.db, mail.templates, mail.settings, parts.tenancy);
  const handler = mailJobHandler<AccountMailJob>({
    transport: mail.transport,
    from: mail.from,
    compose: (job) => accountMails.compose(job),
  });
  const jobs = (parts.jobs ?? new JobQueue({}, {})).including(
    mailJobName,
    mailJobSettings,
    handler,
  );
  return { ...parts, jobs };
}

/** Writes the jobs a handler asked for, with its success (events/dispatcher.ts). */
function writeJobsOf(queue: JobQueue): NonNullable<DispatcherOptions["writeJobs"]> {
  return async (sql, jobs) => {
    for (const job of jobs)
      await queue.enqueue(sql, job.name, job.payload, job.options, job.tenant ?? null);
  };
}

/** The middleware every request goes through first: its id and log line, CORS, Host, JSON body. */
function preparingRequests(
  settings: ApiSettings,
  logger: Logger,
  streamed: (req: Request) => boolean,
): RequestHandler {
  const readBody = jsonBody(settings.bodyLimit, streamed);
  const corsOrigins = new Set(settings.corsOrigins);
  const measured = settings.metrics !== undefined;
  return (req, res, next) => {
    startRequest(logger, req, res, measured);
    // CORS first: a browser app on a listed origin can read the errors below too.
    if (applyCors(corsOrigins, req, res)) return;
    if (checkHost(req, res)) readBody(req, res, next);
  };
}

/**
 * The reference page, which serves its own assets from swagger-ui-dist: it works without internet
 * access. swagger-ui-express is loaded on the first visit, not at start-up, where it cost a quarter
 * of the app's import time (every restart of `npm run dev` paid it).
 */
function referencePage(openapiText: string, title: string): RequestHandler {
  let page: Promise<RequestHandler> | undefined;
  const load = async (): Promise<RequestHandler> => {
    const { default: swaggerUi } = await import("swagger-ui-express");
    const router = express.Router();
    router.use(
      swaggerUi.serve,
      swaggerUi.setup(JSON.parse(openapiText), { customSiteTitle: title }),
    );
    return router;
  };
  return (req, res, next) => {
    page ??= load();
    page.then((handler) => handler(req, res, next), next);
  };
}
