// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import {
  audited,
  authClient,
  passwordResetClient,
  linkedClient,
  resourceClient,
  restorable,
  secondFactorClient,
  Transport,
  uploadable,
  type ApiFailure,
  type MfaChallenge,
  type Result,
  type ResourceTypes,
} from "../../client/src/core.js";
import type { AdminView } from "./manifest.js";

/** Any resource: the admin reads records as the manifest describes them, not by generated types. */
interface AnyResource extends ResourceTypes {
  readonly Record: Record<string, unknown>;
  readonly Create: Record<string, unknown>;
  readonly Update: Record<string, unknown>;
}

export type AnyRecord = Record<string, unknown>;

/** The signed-in user, as GET /api/auth/me answers. */
export interface Me {
  readonly hash: string;
  readonly name: string;
  readonly email: string;
  readonly role: string;
}

/**
 * Where the API is: the page's own origin, or (pages served from a CDN) the one `npm run build`
 * wrote into the page from ADMIN_API_URL (the API then lists the page's origin in CORS_ORIGINS).
 */
function apiOrigin(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="hashapi-api"]');
  return meta?.content || location.origin;
}

const tokenKey = "hashapi-admin-token";
const tenantKey = "hashapi-admin-tenant";

/**
 * The admin's one client of the API: the typed client's transport (a 401 refreshes the token once),
 * the token kept for this tab only (sessionStorage: a new tab signs in again), and the tenant the
 * pages work in.
 */
export class AdminApi {
  readonly transport: Transport;
  readonly auth;
  readonly mfa;
  readonly passwords;

  constructor(storage: Storage = sessionStorage) {
    this.storage = storage;
    this.transport = new Transport({
      baseUrl: apiOrigin(),
      token: storage.getItem(tokenKey) ?? undefined,
      tenant: storage.getItem(tenantKey) ?? undefined,
      refreshOnUnauthorized: true,
      timeoutMs: 30_000,
    });
    this.auth = authClient<Me, Me | MfaChallenge>(this.transport);
    this.mfa = secondFactorClient(this.transport);
    this.passwords = passwordResetClient(this.transport);
  }

  private readonly storage: Storage;

  /** Keeps the token the last call left (a login, a refresh, a logout) for a reload. */
  keep(): void {
    const token = this.transport.getToken();
    if (token === undefined) this.storage.removeItem(tokenKey);
    else this.storage.setItem(tokenKey, token);
  }

  signedIn(): boolean {
    return this.transport.getToken() !== undefined;
  }

  setTenant(tenant: string | undefined): void {
    this.transport.setTenant(tenant);
    if (tenant === undefined) this.storage.removeItem(tenantKey);
    else this.storage.setItem(tenantKey, tenant);
  }

  tenant(): string | undefined {
    return this.storage.getItem(tenantKey) ?? undefined;
  }

  /** Any API call, its token kept afterwards. */
  async call<Data>(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    path: string,
    reading: "data" | "page" | "message",
    body?: unknown,
  ): Promise<Result<Data, ApiFailure>> {
    const result = await this.transport.call<Data>(method, path, reading, body);
    this.keep();
    return result;
  }

  manifest(): Promise<Result<AdminView, ApiFailure>> {
    return this.call<AdminView>("GET", "/api/admin/manifest", "data");
  }

  /** One collection's routes (list, get, create, update, delete, restore, history, uploads). */
  resource(collection: string) {
    const path = `/api/${collection}`;
    return {
      ...resourceClient<AnyResource>(this.transport, path),
      ...restorable<AnyResource>(this.transport, path),
      ...audited<AnyResource>(this.transport, path),
      ...uploadable<string>(this.transport, collection),
      links: (relation: string) =>
        linkedClient<string, AnyResource, Record<string, unknown>>(this.transport, path, relation),
    };
  }
}
