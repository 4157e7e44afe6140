/** One thing wrong, where it is. */
export interface Problem {
  file: string;
  line: number;
  column: number;
  /** Path inside the document, e.g. `relations.member.resource`. */
  path: string;
  message: string;
}

/**
 * Errors a user can cause carry an exit code and a message meant to be printed as is: the CLI shows
 * the message without a stack trace. Anything else that escapes is a bug in hashapi and is reported
 * as one.
 */
export class HashapiError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * Specs that do not validate; `problems` are already formatted as `file:line:col path: message`,
 * `details` are the same problems as data (for `--json`).
 */
export class SpecError extends HashapiError {
  constructor(
    readonly problems: string[],
    readonly details: readonly Problem[] = [],
  ) {
    super(problems.join("\n"), 1);
  }
}

/** A command used the wrong way (unknown option, missing argument, conflicting flags). */
export class UsageError extends HashapiError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A template or generator defect: never the user's fault, always worth a bug report. */
export class TemplateError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`hashapi internal error: ${message}`, options);
    this.name = "TemplateError";
  }
}
