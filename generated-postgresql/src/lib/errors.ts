// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * Domain errors: what went wrong in the application's terms. Services throw these; only the HTTP
 * error handler knows which status and message each becomes.
 */
export class DomainError extends Error {}

export class NotFound extends DomainError {}
export class Conflict extends DomainError {}
export class Forbidden extends DomainError {}
export class Unauthenticated extends DomainError {}

/** Field → messages, in Laravel's shape. */
export type FieldErrors = Record<string, string[]>;

/**
 * An empty FieldErrors without a prototype: field names come from clients, and `errors.toString`
 * or `errors.constructor` on a plain object would find Object.prototype's members instead of nothing.
 */
export function emptyFieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

export class ValidationFailed extends DomainError {
  constructor(readonly errors: FieldErrors) {
    super("The given data was invalid.");
  }
}

export class TooManyAttempts extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super("Too many attempts.");
  }
}

export function fieldError(field: string, message: string): ValidationFailed {
  return new ValidationFailed({ [field]: [message] });
}
