// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { failureOf, networkFailure, type ApiFailure, type Result } from "./result.js";

export interface ClientOptions {
  /** Where the API is served: `http://127.0.0.1:3000` (paths start with /api). */
  readonly baseUrl: string;
  /** The `fetch` to call (a test's, a framework's); the global one by default. */
  readonly fetch?: typeof fetch;
  /** A token to start with; `auth.login` and `auth.refresh` replace it, `setToken` too. */
  readonly token?: string;
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * With tenancy: the tenant every call works in (its public id, sent as X-Tenant); `setTenant`
   * changes it. A tenant's routes answer 400 without one.
   */
  readonly tenant?: string;
  /**
   * On a 401, ask `POST /api/auth/refresh` once for a new token (a token past its expiry is still
   * refreshable within the API's refresh window) and repeat the call with it; calls failed by the
   * same token share that one refresh. Off by default.
   */
  readonly refreshOnUnauthorized?: boolean;
  /**
   * Ends every call of this client that has not answered when the signal aborts (a front end's
   * unmounted view: make a client per view, it costs nothing); such a call is a network failure.
   */
  readonly signal?: AbortSignal;
  /** Ends a call that has not answered within this many milliseconds, as a network failure. */
  readonly timeoutMs?: number;
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** How a successful answer's envelope becomes a result's data. */
export type Reading = "data" | "page" | "message" | "bare";

const refreshPath = "/api/auth/refresh";

/** What an upload's bytes may be: a Blob or a File, bytes, or a stream of them. */
export type UploadBody = Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array>;

/** One HTTP call of the API and its envelope read; holds the bearer token. */
export class Transport {
  private token: string | undefined;
  private tenant: string | undefined;
  /** The refresh in flight, which calls failed by the same token wait for. */
  private refreshing: Promise<void> | undefined;
  private readonly fetch: typeof fetch;
  private readonly base: string;

  constructor(private readonly options: ClientOptions) {
    this.token = options.token;
    this.tenant = options.tenant;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.base = options.baseUrl.replace(/\/+$/, "");
  }

  setToken(token: string | undefined): void {
    this.token = token;
  }

  getToken(): string | undefined {
    return this.token;
  }

  /** The tenant later calls work in (undefined: none). */
  setTenant(tenant: string | undefined): void {
    this.tenant = tenant;
  }

  async call<Data>(
    method: Method,
    path: string,
    reading: Reading,
    body?: unknown,
  ): Promise<Result<Data, ApiFailure>> {
    const sent = this.token;
    const result = await this.once<Data>(method, path, reading, body, sent);
    if (
      result.error?.status !== 401 ||
      !this.options.refreshOnUnauthorized ||
      sent === undefined ||
      path === refreshPath
    )
      return result;
    // One refresh serves every call that the same token failed: the API revokes the token a
    // refresh presents, so a second refresh with it would fail.
    if (this.token === sent) {
      this.refreshing ??= this.renew(sent).finally(() => (this.refreshing = undefined));
      await this.refreshing;
    }
    if (this.token === sent || this.token === undefined) return result;
    return this.once<Data>(method, path, reading, body, this.token);
  }

  /** Replaces `token` by a refreshed one, unless the caller set another meanwhile. */
  private async renew(token: string): Promise<void> {
    const refreshed = await this.once<{ access_token: string }>(
      "POST",
      refreshPath,
      "data",
      undefined,
      token,
    );
    if (refreshed.error === undefined && this.token === token)
      this.token = refreshed.data.access_token;
  }

  /**
   * PUTs an upload's bytes to the URL the API gave: this service's own or a bucket's presigned one.
   * Each is signed itself, so neither gets the token, the tenant nor the client's headers. The
   * service answers its envelope (`data`); a bucket answers no JSON (undefined).
   */
  put<Data>(url: string, body: UploadBody): Promise<Result<Data | undefined, ApiFailure>> {
    return this.once<Data | undefined>("PUT", url, "data", body, undefined, true);
  }

  /** What ends a call: the client's signal, its time limit, both, or nothing. */
  private signal(): AbortSignal | undefined {
    const { signal, timeoutMs } = this.options;
    if (timeoutMs === undefined) return signal;
    const limit = AbortSignal.timeout(timeoutMs);
    return signal === undefined ? limit : AbortSignal.any([signal, limit]);
  }

  private async once<Data>(
    method: Method,
    path: string,
    reading: Reading,
    body: unknown,
    token: string | undefined,
    /** An upload's bytes, sent as they are to a URL signed itself (put). */
    raw = false,
  ): Promise<Result<Data, ApiFailure>> {
    const headers: Record<string, string> = raw
      ? {}
      : { Accept: "application/json", ...this.options.headers };
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    if (this.tenant !== undefined && !raw) headers["X-Tenant"] = this.tenant;
    if (body !== undefined && !raw) headers["Content-Type"] = "application/json";
    let response: Response;
    let parsed: unknown;
    try {
      const signal = this.signal();
      response = await this.fetch(/^https?:\/\//i.test(path) ? path : `${this.base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: raw ? (body as BodyInit) : JSON.stringify(body) }),
        // A stream is sent as it is read (Node's fetch needs to be told).
        ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
        ...(signal === undefined ? {} : { signal }),
      } as RequestInit);
      const text = await response.text();
      const json = !raw || (response.headers.get("Content-Type") ?? "").includes("json");
      parsed = text === "" || !json ? undefined : JSON.parse(text);
    } catch (cause) {
      return { error: networkFailure(`${method} ${path} failed`, cause) };
    }
    if (!response.ok)
      return { error: failureOf(response.status, parsed, response.headers.get("Retry-After")) };
    const envelope = parsed as {
      data?: unknown;
      links?: unknown;
      meta?: unknown;
      message?: unknown;
    };
    if (raw && envelope === undefined) return { data: undefined as Data };
    if (typeof envelope !== "object" || envelope === null)
      return { error: networkFailure(`${method} ${path}: the answer is not JSON`) };
    const data =
      reading === "bare"
        ? envelope
        : reading === "page"
          ? { data: envelope.data, links: envelope.links, meta: envelope.meta }
          : reading === "message"
            ? { message: envelope.message }
            : envelope.data;
    return { data: data as Data };
  }
}
