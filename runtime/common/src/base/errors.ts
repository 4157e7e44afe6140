// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * Domain errors: what went wrong in the application's terms. Services throw these; only the HTTP
 * error handler knows which status and message each becomes.
 */
export class DomainError extends Error {}

/*
 * Each error's message is what the client reads: the contract's wording by default, or the one
 * your code gives (`throw new Conflict("A paid order cannot be deleted.")`).
 */
export class NotFound extends DomainError {
  constructor(message = "Resource not found.") {
    super(message);
  }
}
export class Conflict extends DomainError {
  constructor(message = "Resource is referenced by other records.") {
    super(message);
  }
}
export class Forbidden extends DomainError {
  constructor(message = "This action is unauthorized.") {
    super(message);
  }
}
/** A request that lacks what its route needs to be understood (a tenant's route without X-Tenant). */
export class BadRequest extends DomainError {}
/** Always "Unauthenticated.": why a token was refused is not for the client to learn. */
export class Unauthenticated extends DomainError {}

/** Field → messages, in Laravel's shape. */
export type FieldErrors = Record<string, string[]>;

/**
 * An empty FieldErrors without a prototype: field names come from clients, and `errors.toString`
 * or `errors.constructor` on a plain object would find Object.prototype's members instead of nothing.
 */
export function emptyFieldErrors(): FieldErrors {
  return Object.create(null);
}

/** Field errors in one line each, as a person reads them: `country: The country field must be 2 characters.` */
export function describeFieldErrors(errors: Readonly<FieldErrors>): string[] {
  return Object.entries(errors).map(([field, messages]) => `${field}: ${messages.join(" ")}`);
}

export class ValidationFailed extends DomainError {
  constructor(
    readonly errors: FieldErrors,
    /** The body as the rules saw it (text normalized), when a validator refused it. */
    readonly checked?: Readonly<Record<string, unknown>>,
  ) {
    super("The given data was invalid.");
  }
}

export class TooManyAttempts extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super("Too many attempts.");
  }
}

/** A caller past a request limit (rateLimit in hashapi.yaml): 429 with Retry-After. */
export class TooManyRequests extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super("Too many requests.");
  }
}

/** A body past what its route can ever take (a multipart body longer than its files at their largest): 413. */
export class PayloadTooLarge extends DomainError {
  constructor() {
    super("Payload too large.");
  }
}

/** Work the service bounds is at its bound (password hashing): 503 with Retry-After, try again shortly. */
export class ServiceBusy extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }
}

export function fieldError(field: string, message: string): ValidationFailed {
  return new ValidationFailed({ [field]: [message] });
}
