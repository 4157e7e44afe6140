// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { loadModule } from "./optional-modules.js";

/*
 * What a file is, from its bytes: never from the name or the type its sender declared. Binary
 * formats by their signatures (file-type); text, which has none, by what it holds: SVG and HTML
 * (which a browser would run) told apart from plain text. The first bytes are enough
 * (`sniffBytes`), so a file is read once, as it streams.
 */

/** file-type's and image-size's parts this module uses. */
interface FileTypeModule {
  fileTypeFromBuffer(buffer: Uint8Array): Promise<{ ext: string; mime: string } | undefined>;
}
interface ImageSizeModule {
  imageSize(input: Uint8Array): { width?: number; height?: number };
}

/** How many of a file's first bytes its type and an image's dimensions are read from. */
export const sniffBytes = 64 * 1024;

export interface SniffedType {
  /** The media type, as stored and served. */
  readonly mime: string;
  /** Extensions the content answers to (`jpg` and `jpeg`); empty for unknown binary data. */
  readonly extensions: readonly string[];
  /** Pixel size, for images whose header the first bytes hold. */
  readonly dimensions?: { readonly width: number; readonly height: number };
}

const aliases: Readonly<Record<string, readonly string[]>> = {
  jpg: ["jpg", "jpeg"],
  tif: ["tif", "tiff"],
  // docx, xlsx and pptx are zip archives; a rule naming zip accepts them as file-type tells them apart.
};

/** Extensions a plain text file may carry: its name decides among them, the bytes cannot. */
export const textExtensions = ["txt", "csv", "md", "json", "log", "tsv"] as const;

const xmlTypes = new Set(["application/xml", "text/xml"]);
const svgStart = /^(?:\s|<\?xml[^>]*>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*<svg[\s>]/i;
const htmlMarks =
  /<(?:!doctype\s+html|html|head|body|script|iframe|object|embed|meta|link|style|svg)[\s/>]/i;

/** The type of a file whose first bytes are `head`. */
export async function sniffType(head: Buffer): Promise<SniffedType> {
  const { fileTypeFromBuffer } = await loadModule<FileTypeModule>("file-type");
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  // XML is told apart further: an SVG or an XHTML page is run by a browser as such.
  if (found && !xmlTypes.has(found.mime)) {
    const sniffed = { mime: found.mime, extensions: aliases[found.ext] ?? [found.ext] };
    if (!found.mime.startsWith("image/")) return sniffed;
    return withDimensions(sniffed, head, await loadModule<ImageSizeModule>("image-size"));
  }
  const text = textOf(head);
  if (text === undefined) return { mime: "application/octet-stream", extensions: [] };
  if (svgStart.test(text)) return { mime: "image/svg+xml", extensions: ["svg"] };
  if (htmlMarks.test(text.slice(0, 4096)))
    return { mime: "text/html", extensions: ["html", "htm"] };
  return { mime: "text/plain", extensions: textExtensions };
}

/** The bytes as text when they are UTF-8 without NUL (a cut at the end of the head is allowed). */
function textOf(head: Buffer): string | undefined {
  if (head.includes(0)) return undefined;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(head);
  // A replacement character other than one from a character cut at the end: not UTF-8 text.
  const cut = text.lastIndexOf("\uFFFD");
  if (cut !== -1 && cut < text.length - 3) return undefined;
  return text.replace(/^\uFEFF/, "");
}

function withDimensions(sniffed: SniffedType, head: Buffer, sizes: ImageSizeModule): SniffedType {
  try {
    const { width, height } = sizes.imageSize(new Uint8Array(head));
    return width && height ? { ...sniffed, dimensions: { width, height } } : sniffed;
  } catch {
    return sniffed;
  }
}

/** A file name's extension, lower-cased; undefined without one. */
export function extensionOf(name: string): string | undefined {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match ? match[1]!.toLowerCase() : undefined;
}
