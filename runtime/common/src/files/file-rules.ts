// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { extensionOf, textExtensions, type SniffedType } from "./sniff.js";

/*
 * Laravel's file rules, decided on what the bytes are (sniff.ts), with Laravel's messages: `file`
 * (a file was received), `max` and `min` (kilobytes), `mimes` (extensions), `mimetypes` (media
 * types, `image/*` allowed), `image` and `dimensions`. SVG and HTML, which a browser runs, are
 * refused unless a rule names them; a name whose extension the content does not answer to is
 * refused as a lie.
 */

/** A file field's rules, as the resource's declaration holds them. */
export interface FileRules {
  /** The field's label in messages ("resume"). */
  readonly label: string;
  /** Bytes at most (the spec's `max`, in kilobytes, × 1024). */
  readonly maxBytes: number;
  readonly minBytes?: number;
  readonly mimes?: readonly string[];
  readonly mimetypes?: readonly string[];
  readonly image?: boolean;
  readonly dimensions?: Readonly<Partial<Record<DimensionKey, number>>>;
}

type DimensionKey = "min_width" | "max_width" | "min_height" | "max_height" | "width" | "height";

/** What a received file is, for its rules. */
export interface ReceivedFile {
  readonly name: string;
  readonly size: number;
  readonly sniffed: SniffedType;
}

const imageTypes = new Set(["image/jpeg", "image/png", "image/gif", "image/bmp", "image/webp"]);
const activeTypes = new Set(["image/svg+xml", "text/html"]);

/** Laravel's message of a file rule. */
export function fileMessage(
  rule: "file" | "uploaded" | "max" | "min" | "mimes" | "image" | "dimensions",
  rules: FileRules,
): string {
  const attribute = rules.label;
  switch (rule) {
    case "file":
      return `The ${attribute} field must be a file.`;
    case "uploaded":
      return `The ${attribute} failed to upload.`;
    case "max":
      return `The ${attribute} field must not be greater than ${Math.floor(rules.maxBytes / 1024)} kilobytes.`;
    case "min":
      return `The ${attribute} field must be at least ${Math.ceil((rules.minBytes ?? 0) / 1024)} kilobytes.`;
    case "mimes":
      return `The ${attribute} field must be a file of type: ${typesNamed(rules).join(", ")}.`;
    case "image":
      return `The ${attribute} field must be an image.`;
    case "dimensions":
      return `The ${attribute} field has invalid image dimensions.`;
  }
}

function typesNamed(rules: FileRules): string[] {
  return [...(rules.mimes ?? []), ...(rules.mimetypes ?? [])];
}

/** The messages of every rule a received file breaks; empty when it passes them all. */
export function fileProblems(rules: FileRules, file: ReceivedFile): string[] {
  if (file.size > rules.maxBytes) return [fileMessage("max", rules)];
  const problems: string[] = [];
  if (rules.minBytes !== undefined && file.size < rules.minBytes)
    problems.push(fileMessage("min", rules));
  const typeProblem = typeProblemOf(rules, file);
  if (typeProblem) problems.push(fileMessage(typeProblem, rules));
  else if (rules.dimensions && !dimensionsFit(rules.dimensions, file.sniffed))
    problems.push(fileMessage("dimensions", rules));
  return problems;
}

/** The type rule a file breaks: its content against the rules, and its name against its content. */
function typeProblemOf(rules: FileRules, file: ReceivedFile): "mimes" | "image" | undefined {
  const { sniffed } = file;
  const claimed = extensionOf(file.name);
  const named = new Set((rules.mimes ?? []).map((extension) => extension.toLowerCase()));
  const namedType = (rules.mimetypes ?? []).some((type) => typeMatches(type, sniffed.mime));
  // An SVG or an HTML page a rule names (by type or extension) is taken, an image field's too.
  const namedActive =
    activeTypes.has(sniffed.mime) &&
    (namedType || sniffed.extensions.some((extension) => named.has(extension)));
  const lie =
    claimed !== undefined && sniffed.extensions.length > 0 && !sniffed.extensions.includes(claimed);
  const failed = rules.image ? "image" : "mimes";
  if (lie) return failed;
  if (activeTypes.has(sniffed.mime) && !namedActive) return failed;
  if (rules.image && !imageTypes.has(sniffed.mime) && !namedActive) return "image";
  if (named.size === 0 && (rules.mimetypes ?? []).length === 0) return undefined;
  if (namedType) return undefined;
  if (sniffed.mime === "text/plain")
    return claimed !== undefined &&
      named.has(claimed) &&
      (textExtensions as readonly string[]).includes(claimed)
      ? undefined
      : "mimes";
  return sniffed.extensions.some((extension) => named.has(extension)) ? undefined : "mimes";
}

function typeMatches(rule: string, mime: string): boolean {
  const wanted = rule.toLowerCase();
  return wanted.endsWith("/*") ? mime.startsWith(wanted.slice(0, -1)) : wanted === mime;
}

function dimensionsFit(
  limits: NonNullable<FileRules["dimensions"]>,
  sniffed: SniffedType,
): boolean {
  const size = sniffed.dimensions;
  if (!size) return false;
  const { width, height } = size;
  const checks: [number | undefined, boolean][] = [
    [limits.min_width, width >= (limits.min_width ?? 0)],
    [limits.max_width, width <= (limits.max_width ?? Infinity)],
    [limits.min_height, height >= (limits.min_height ?? 0)],
    [limits.max_height, height <= (limits.max_height ?? Infinity)],
    [limits.width, width === limits.width],
    [limits.height, height === limits.height],
  ];
  return checks.every(([limit, fits]) => limit === undefined || fits);
}

/** Whether a file of these rules is served inline (a declared image), not as an attachment. */
export function servedInline(rules: Pick<FileRules, "image">, mime: string): boolean {
  return rules.image === true && imageTypes.has(mime);
}
