// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ApiFailure, Result } from "./result.js";
import type { Transport, UploadBody } from "./transport.js";

/** What `upload` takes: a Blob or a File (browsers, Node), bytes, or a stream of them. */
export type { UploadBody };

/** An upload stored and ready: name it by `upload` in a create or update's payload. */
export interface Uploaded {
  /** The token a payload names the file by (`{ resume: uploaded.upload }`). */
  readonly upload: string;
  /** Name, size and type as the service read them (absent when the bytes went to a bucket). */
  readonly name?: string;
  readonly size?: number;
  readonly type?: string;
}

interface Asked {
  readonly upload: string;
  readonly url: string;
  readonly expires_at: string;
}

/**
 * `upload`, on a resource with file fields: asks the API for an upload of `field`, then PUTs the
 * bytes where it says (the service itself, or a bucket's presigned URL, which never sees the
 * token). A File names itself; other bodies take `options.name`. The bytes' rules are decided when
 * they are stored (the service's own URL) or when a write names the upload (a bucket).
 */
export function uploadable<Field extends string>(transport: Transport, collection: string) {
  return {
    async upload(
      field: Field,
      body: UploadBody,
      options: { readonly name?: string; readonly size?: number } = {},
    ): Promise<Result<Uploaded, ApiFailure<"collection" | "field" | "name" | "size" | Field>>> {
      const name = options.name ?? fileNameOf(body);
      const size = options.size ?? sizeOf(body);
      const asked = await transport.call<Asked>("POST", "/api/uploads", "data", {
        collection,
        field,
        name,
        ...(size === undefined ? {} : { size }),
      });
      if (asked.error !== undefined) return asked;
      const put = await transport.put<Uploaded>(asked.data.url, body);
      if (put.error !== undefined) return put;
      return { data: put.data ?? { upload: asked.data.upload } };
    },
  };
}

function fileNameOf(body: UploadBody): string {
  return typeof File !== "undefined" && body instanceof File && body.name !== ""
    ? body.name
    : "file";
}

function sizeOf(body: UploadBody): number | undefined {
  if (body instanceof Blob) return body.size;
  if (body instanceof ArrayBuffer || body instanceof Uint8Array) return body.byteLength;
  return undefined;
}

/** The upload routes of a resource with file fields. */
export type UploadRoutes<Field extends string> = ReturnType<typeof uploadable<Field>>;
