// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * What every call of the client resolves to: the data, or an error the caller can act on. API errors
 * are values, never rejections, so `if (result.error)` is the one place a caller handles them, and
 * TypeScript narrows `result.error` by its `status` (a 422 has `errors`, a 429 `retryAfter`).
 */

/** The statuses the API answers with an error envelope (hashapi's API contract, §5). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 500 | 502 | 503 | 504;

/** A 422: `errors` holds the messages of each payload key that failed (`relation.index` keys too). */
export interface ValidationFailure<Key extends string = string> {
  readonly status: 422;
  readonly message: string;
  readonly errors: Partial<Record<Key, string[]>>;
}

/** A 429: `retryAfter` is the seconds the server asked to wait (its Retry-After), when it said. */
export interface TooManyRequests {
  readonly status: 429;
  readonly message: string;
  readonly retryAfter: number | undefined;
}

export interface OtherFailure {
  readonly status: ErrorStatus;
  readonly message: string;
}

/**
 * No answer from the API: the request failed (network, DNS, an aborted signal) or what came back is
 * not the API's envelope (a proxy's HTML page, a status the API never answers with).
 */
export interface NetworkFailure {
  readonly status: 0;
  readonly kind: "network";
  readonly message: string;
  readonly cause?: unknown;
}

/** Any error of a call; `Key` names the payload keys a 422 may report. */
export type ApiFailure<Key extends string = string> =
  ValidationFailure<Key> | TooManyRequests | OtherFailure | NetworkFailure;

export type Result<Data, Failure = ApiFailure> =
  | { readonly data: Data; readonly error?: undefined }
  | { readonly data?: undefined; readonly error: Failure };

/** Thrown by `unwrap` and by `all()`: the failure, typed, as `error`. */
export class ApiError<Failure extends ApiFailure = ApiFailure> extends Error {
  constructor(readonly error: Failure) {
    super(error.status === 0 ? error.message : `${error.status} ${error.message}`);
    this.name = "ApiError";
  }

  get status(): Failure["status"] {
    return this.error.status;
  }
}

/** The data of a result, or its failure thrown as an ApiError. */
export function unwrap<Data, Failure extends ApiFailure>(result: Result<Data, Failure>): Data {
  if (result.error !== undefined) throw new ApiError(result.error);
  return result.data as Data;
}

const errorStatuses: ReadonlySet<number> = new Set([
  400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 500, 502, 503, 504,
]);

export function networkFailure(message: string, cause?: unknown): NetworkFailure {
  return cause === undefined
    ? { status: 0, kind: "network", message }
    : { status: 0, kind: "network", message, cause };
}

/** The failure an error answer stands for, from its status, envelope and Retry-After header. */
export function failureOf(status: number, body: unknown, retryAfter: string | null): ApiFailure {
  const envelope = body as { message?: unknown; errors?: unknown } | null;
  if (!errorStatuses.has(status) || typeof envelope?.message !== "string")
    return networkFailure(`Unexpected answer (HTTP ${status})`);
  const { message } = envelope;
  if (status === 422) {
    const errors =
      typeof envelope.errors === "object" && envelope.errors !== null ? envelope.errors : {};
    return { status, message, errors: errors as Record<string, string[]> };
  }
  if (status === 429) {
    const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
    return { status, message, retryAfter: Number.isFinite(seconds) ? seconds : undefined };
  }
  return { status: status as ErrorStatus, message };
}
