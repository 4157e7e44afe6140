// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { newStorageKey } from "./keys.js";
import { sniffBytes } from "./sniff.js";
import type { Download, FileStorage, Meter, ObjectHead } from "./storage.js";
import type { UrlSigner } from "./signed-urls.js";

/**
 * Files in a folder of this machine (`storage.driver: local`, `data/files` by default), each at
 * `<folder>/<two characters of its key>/<key>`, written to a temporary name first and renamed once
 * whole: a process killed mid-upload leaves a `.part` file, never a stored one (the orphan schedule
 * removes both). Its URLs are the service's own, signed (signed-urls.ts).
 */
export class LocalStorage implements FileStorage {
  readonly driver = "local";

  constructor(
    private readonly folder: string,
    private readonly signer: UrlSigner,
    /** APP_URL, or empty: the URLs are then paths of this service. */
    private readonly origin: string,
  ) {}

  pathOf(key: string): string {
    return join(this.folder, key.slice(0, 2), key);
  }

  async write(key: string, source: Readable, meter: Meter): Promise<ObjectHead> {
    const path = this.pathOf(key);
    await mkdir(join(this.folder, key.slice(0, 2)), { recursive: true });
    const partial = `${path}.${newStorageKey()}.part`;
    // The source is piped, not pipelined: a file cut short (over its size) leaves the request
    // readable, so that its sender still gets the answer that says why once the rest is drained.
    const failed = (error: Error) => meter.destroy(error);
    source.once("error", failed);
    source.pipe(meter);
    try {
      await pipeline(meter, createWriteStream(partial, { flags: "wx" }));
      await rename(partial, path);
    } catch (error) {
      source.unpipe(meter);
      await rm(partial, { force: true });
      throw error;
    } finally {
      source.off("error", failed);
    }
    return { size: meter.size, head: meter.head };
  }

  /** Nothing to record: the service serves its own files, with their upload's name and type. */
  async describe(): Promise<void> {}

  async inspect(key: string): Promise<ObjectHead | undefined> {
    const path = this.pathOf(key);
    const found = await stat(path).catch(() => undefined);
    if (!found?.isFile()) return undefined;
    const file = await open(path, "r");
    try {
      const head = Buffer.alloc(Math.min(sniffBytes, found.size));
      await file.read(head, 0, head.length, 0);
      return { size: found.size, head };
    } finally {
      await file.close();
    }
  }

  read(key: string): Readable {
    return createReadStream(this.pathOf(key));
  }

  /** Removes the file and any `.part` of it a process killed mid-upload left behind. */
  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
    const folder = join(this.folder, key.slice(0, 2));
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names)
      if (name.startsWith(`${key}.`) && name.endsWith(".part"))
        await rm(join(folder, name), { force: true });
  }

  downloadUrl(key: string, _download: Download, expiresAt: Date): string {
    return `${this.origin}/api/files/${key}?${this.signer.query("GET", key, expiresAt)}`;
  }

  uploadUrl(_key: string, token: string, expiresAt: Date): string {
    return `${this.origin}/api/uploads/${token}?${this.signer.query("PUT", token, expiresAt)}`;
  }
}
