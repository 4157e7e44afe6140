// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { loadModule } from "./optional-modules.js";
import { LocalStorage } from "./local-storage.js";
import { presignedUrl, type S3Credentials } from "./sigv4.js";
import { sniffBytes } from "./sniff.js";
import type { Download, FileStorage, Meter, ObjectHead } from "./storage.js";
import type { UrlSigner } from "./signed-urls.js";

/** `storage.driver: s3`: a bucket of any S3-compatible service, and how to reach it. */
export interface S3Settings {
  readonly bucket: string;
  /** The service's origin; AWS's regional endpoint when unset. */
  readonly endpoint?: string;
  readonly region: string;
  readonly credentials: S3Credentials;
}

/** The parts of @aws-sdk/client-s3 this module uses. */
type Command = new (input: Record<string, unknown>) => object;
interface S3Module {
  S3Client: new (config: Record<string, unknown>) => S3Client;
  PutObjectCommand: Command;
  GetObjectCommand: Command;
  DeleteObjectCommand: Command;
  CopyObjectCommand: Command;
}
interface S3Client {
  send(command: object): Promise<{
    Body?: { transformToByteArray(): Promise<Uint8Array> };
    ContentRange?: string;
  }>;
}

/**
 * Files in an S3 bucket, through the AWS SDK (loaded only by a service on this driver). An upload
 * streams to a spool file of this machine first (the SDK must know an object's length before it
 * sends it, and memory must stay flat whatever the size), then to the bucket. URLs are the
 * bucket's own presigned ones (sigv4.ts): downloads name their file and type in the signed query.
 */
export class S3Storage implements FileStorage {
  readonly driver = "s3";
  private readonly endpoint: URL;
  private readonly spool: LocalStorage;
  private client: Promise<{ sdk: S3Module; client: S3Client }> | undefined;

  constructor(
    private readonly settings: S3Settings,
    spoolFolder: string,
    signer: UrlSigner,
  ) {
    this.endpoint = new URL(settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`);
    this.spool = new LocalStorage(spoolFolder, signer, "");
  }

  private sdk() {
    this.client ??= loadModule<S3Module>("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: this.settings.region,
        endpoint: this.endpoint.origin,
        forcePathStyle: true,
        credentials: this.settings.credentials,
        // Plain PUTs: S3-compatible services do not all read the SDK's chunked checksums.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    }));
    return this.client;
  }

  async write(
    key: string,
    source: Readable,
    meter: Meter,
    describe?: (head: ObjectHead) => Promise<Download>,
  ): Promise<ObjectHead> {
    // Spooled under its own key: what a process killed mid-upload leaves, remove() finds.
    const spooled = key;
    try {
      const head = await this.spool.write(spooled, source, meter);
      const download = describe ? await describe(head) : undefined;
      const { sdk, client } = await this.sdk();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Body: createReadStream(this.spool.pathOf(spooled)),
          ContentLength: head.size,
          ...served(download),
        }),
      );
      return head;
    } finally {
      await rm(this.spool.pathOf(spooled), { force: true });
    }
  }

  /** Sets an object's type and disposition (a two-phase upload PUT by its client), copying it onto itself. */
  async describe(key: string, download: Download): Promise<void> {
    const { sdk, client } = await this.sdk();
    const { bucket } = this.settings;
    await client.send(
      new sdk.CopyObjectCommand({
        Bucket: bucket,
        Key: key,
        CopySource: `${bucket}/${key}`,
        MetadataDirective: "REPLACE",
        ...served(download),
      }),
    );
  }

  async inspect(key: string): Promise<ObjectHead | undefined> {
    const { sdk, client } = await this.sdk();
    try {
      const found = await client.send(
        new sdk.GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Range: `bytes=0-${sniffBytes - 1}`,
        }),
      );
      const head = Buffer.from(await found.Body!.transformToByteArray());
      const total = /\/(\d+)$/.exec(found.ContentRange ?? "")?.[1];
      return { size: total === undefined ? head.length : Number(total), head };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
        ?.httpStatusCode;
      // 416: an empty object has no byte 0.
      if (status === 416) return { size: 0, head: Buffer.alloc(0) };
      if (status === 404 || (error as { name?: string }).name === "NoSuchKey") return undefined;
      throw error;
    }
  }

  /** Removes the object, and what of it a process killed mid-upload left in the spool. */
  async remove(key: string): Promise<void> {
    await this.spool.remove(key);
    const { sdk, client } = await this.sdk();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  /** The object's presigned URL: it is served with the type and disposition it was stored with. */
  downloadUrl(key: string, _download: Download, expiresAt: Date): string {
    return this.presign("GET", key, expiresAt, {});
  }

  uploadUrl(key: string, _token: string, expiresAt: Date): string {
    return this.presign("PUT", key, expiresAt, {});
  }

  private presign(
    method: "GET" | "PUT",
    key: string,
    expiresAt: Date,
    query: Record<string, string>,
  ) {
    const now = new Date();
    const expiresSeconds = Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000));
    const { bucket, region, credentials } = this.settings;
    return presignedUrl(credentials, {
      method,
      endpoint: this.endpoint,
      bucket,
      key,
      region,
      expiresSeconds,
      query,
      now,
    });
  }
}

/** What a bucket serves an object with: its type and disposition (none before they are known). */
function served(download: Download | undefined): Record<string, string> {
  if (download === undefined) return { ContentType: "application/octet-stream" };
  return { ContentType: download.type, ContentDisposition: contentDisposition(download) };
}

/**
 * `Content-Disposition` of a download: attachment (inline for declared images) with its name, in
 * ASCII and, for a name beyond it, in UTF-8 as well (`filename*`).
 */
export function contentDisposition(download: Download): string {
  const ascii = download.name.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const kind = download.inline ? "inline" : "attachment";
  if (ascii === download.name) return `${kind}; filename="${ascii}"`;
  const encoded = encodeURIComponent(download.name).replace(
    /['()*!]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
