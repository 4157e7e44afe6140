/**
 * Who owns a file in the output directory:
 * - generated: hashapi's; rewritten when its bytes change, deleted when no longer generated.
 * - user: created once, then the user's; never overwritten or deleted.
 * - migration: append-only history; created once, never rewritten or deleted.
 */
export type Ownership = "generated" | "user" | "migration";

export interface OutputFile {
  /** Posix path relative to the output directory. */
  path: string;
  content: string;
  ownership: Ownership;
  /** The spec it comes from, e.g. `specs/patient.yaml`, or `specs/` for project-wide files. */
  source: string;
  /**
   * sha256 of the text as rendered, before prettier formatted it into `content`; set on generated files
   * that prettier formats. The manifest keeps it so that a later run can reuse the formatted bytes.
   */
  renderSha256?: string;
  /** Already in its final layout (the runtime library, JSON laid out by the emit stage): never reformatted. */
  verbatim?: boolean;
  /**
   * Rendered from a template kept in prettier's layout: written as rendered when its lines fit the
   * print width (see laid-out.ts), formatted otherwise.
   */
  laidOut?: boolean;
}

/** Iteration order is sorted by path. */
export type FileMap = ReadonlyMap<string, OutputFile>;
