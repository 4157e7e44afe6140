// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Transform, type Readable, type TransformCallback } from "node:stream";
import { sniffBytes } from "./sniff.js";

/*
 * Where files' bytes live (hashapi.yaml `storage.driver`): a folder of this machine (`local`,
 * local-storage.ts) or a bucket of any S3-compatible service (`s3`, s3-storage.ts). Both are
 * written from a stream, never from a file held whole in memory, and name objects by random keys.
 */

/** A stored object's size and first bytes, which its type is read from (sniff.ts). */
export interface ObjectHead {
  readonly size: number;
  readonly head: Buffer;
}

/** How a download is answered: the name it saves as, its type, inline (declared images) or not. */
export interface Download {
  readonly name: string;
  readonly type: string;
  readonly inline: boolean;
}

export interface FileStorage {
  readonly driver: "local" | "s3";
  /**
   * Stores the bytes `source` streams (counted and cut by `meter`) under `key`; `describe` says how
   * a bucket serves it (its type and disposition, read from its first bytes).
   */
  write(
    key: string,
    source: Readable,
    meter: Meter,
    describe?: (head: ObjectHead) => Promise<Download>,
  ): Promise<ObjectHead>;
  /** How a stored object is served from now on (a bucket's; nothing for a folder, served by us). */
  describe(key: string, download: Download): Promise<void>;
  /** A stored object's size and first bytes; undefined when there is none. */
  inspect(key: string): Promise<ObjectHead | undefined>;
  /** Removes an object; nothing when there is none. */
  remove(key: string): Promise<void>;
  /** A URL that downloads the object until `expiresAt`. */
  downloadUrl(key: string, download: Download, expiresAt: Date): string;
  /** Where a two-phase upload PUTs its bytes until `expiresAt` (`token`: the upload's). */
  uploadUrl(key: string, token: string, expiresAt: Date): string;
}

/** A stream cut for being over its size, past its sender's allowance of bytes, or for a sender too slow. */
export class UploadCut extends Error {
  constructor(readonly reason: "too-large" | "quota" | "slow") {
    super(
      reason === "too-large"
        ? "the file is over its size limit"
        : reason === "quota"
          ? "the sender is past its bytes for this window"
          : "the sender stalled",
    );
  }
}

/**
 * The bytes of one upload as they pass: counted, the first `sniffBytes` kept for the type, cut
 * (UploadCut) past `maxBytes` or after `idleMs` without a byte.
 */
export class Meter extends Transform {
  size = 0;
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly idleMs: number,
  ) {
    super();
    this.arm();
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks, this.headLength);
  }

  override _transform(chunk: Buffer, _encoding: string, done: TransformCallback): void {
    this.arm();
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(new UploadCut("too-large"));
    if (this.headLength < sniffBytes) {
      const part = chunk.subarray(0, sniffBytes - this.headLength);
      this.headChunks.push(Buffer.from(part));
      this.headLength += part.length;
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.disarm();
    done();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.disarm();
    done(error);
  }

  private arm(): void {
    this.disarm();
    this.idle = setTimeout(() => this.destroy(new UploadCut("slow")), this.idleMs);
    this.idle.unref();
  }

  private disarm(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
  }
}
