import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

/*
 * What the file tests send and watch: sample files whose bytes say what they are (or lie), an
 * S3-compatible server of npm's (@20minutes/s3rver: it checks SigV4 signatures, presigned URLs and
 * their expiry), a multipart upload that streams slowly, and a process tree's memory.
 */

/** A PDF's first bytes: what file-type reads a PDF by. */
export const pdfBytes = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
export const htmlBytes = Buffer.from("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>");
export const svgBytes = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A grey PNG of `width` × `height` pixels. */
export function png(width: number, height = 1): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let row = 0; row < height; row += 1) rows[row * (width + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

/** A multipart body of text parts and files, with a Content-Type to send it with. */
export function multipart(parts: { name: string; value?: string; file?: { filename: string; bytes: Buffer; type?: string } }[]): { body: Buffer; type: string } {
  const boundary = `----hashapi${Math.random().toString(16).slice(2)}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.file ? `form-data; name="${part.name}"; filename="${part.file.filename}"` : `form-data; name="${part.name}"`;
    const type = part.file ? `\r\nContent-Type: ${part.file.type ?? "application/octet-stream"}` : "";
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), part.file ? part.file.bytes : Buffer.from(part.value ?? ""), Buffer.from("\r\n"));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), type: `multipart/form-data; boundary=${boundary}` };
}

/** An S3-compatible server of this machine, with one bucket, for the s3 driver's tests. */
export async function startS3(): Promise<{ env: Record<string, string>; endpoint: string; stop(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), "hashapi-s3-"));
  const name = "@20minutes/s3rver";
  const { default: S3rver } = (await import(name)) as { default: new (options: object) => { run(): Promise<{ port: number }>; close(): Promise<void> } };
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: "hashapi-files" }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: { STORAGE_DRIVER: "s3", S3_BUCKET: "hashapi-files", S3_ENDPOINT: endpoint, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The resident memory of a process and its descendants, in bytes (Linux /proc). */
export async function treeRss(pid: number): Promise<number> {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const status = await readFile(`/proc/${next}/status`, "utf8").catch(() => "");
    total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    const tasks = await import("node:fs/promises").then((fs) => fs.readdir(`/proc/${next}/task`).catch(() => [] as string[]));
    for (const task of tasks) {
      const children = await readFile(`/proc/${next}/task/${task}/children`, "utf8").catch(() => "");
      pending.push(...children.split(/\s+/).filter(Boolean).map(Number));
    }
  }
  return total;
}

/** The highest memory of a process tree while `work` runs, sampled every 50 ms. */
export async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number; before: number }> {
  const before = await treeRss(pid);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRss(pid));
      await new Promise((done) => setTimeout(done, 50));
    }
  })();
  try {
    const result = await work();
    return { result, peak, before };
  } finally {
    sampling = false;
    await sampler;
  }
}

export interface SlowUpload {
  /** Resolves with the status (0 when the connection was cut without an answer) and the body. */
  readonly answer: Promise<{ status: number; text: string }>;
  /** Sends the rest and the closing boundary. */
  finish(): void;
  /** Stops sending, the connection left open (a stalled sender). */
  stall(): void;
  destroy(): void;
}

/**
 * A multipart create that sends a file of `totalBytes` as `chunkBytes` every `everyMs`, without
 * Content-Length (chunked), until told to finish or stall: a slow, a stalled or a huge sender.
 */
export function slowUpload(baseUrl: string, path: string, token: string, field: string, options: { totalBytes: number; chunkBytes: number; everyMs: number; payload?: object; filename?: string; first?: Buffer }): SlowUpload {
  const boundary = "----hashapislow";
  const url = new URL(path, baseUrl);
  const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: url.pathname.startsWith("/api/uploads/") ? "PUT" : "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Transfer-Encoding": "chunked" } });
  const answer = new Promise<{ status: number; text: string }>((resolve) => {
    req.on("response", (response) => {
      let text = "";
      response.on("data", (data: Buffer) => (text += data.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      response.on("error", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    req.on("error", () => resolve({ status: 0, text: "" }));
    req.on("close", () => setTimeout(() => resolve({ status: 0, text: "" }), 200));
  });
  const opening = [
    ...(options.payload ? [`--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n${JSON.stringify(options.payload)}\r\n`] : []),
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${options.filename ?? "big.bin"}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  ].join("");
  req.write(opening);
  if (options.first) req.write(options.first);
  let sent = options.first?.length ?? 0;
  let stopped = false;
  const filler = Buffer.alloc(options.chunkBytes, 0x61);
  const timer = setInterval(() => {
    if (stopped) return;
    if (sent >= options.totalBytes) return;
    const piece = filler.subarray(0, Math.min(options.chunkBytes, options.totalBytes - sent));
    sent += piece.length;
    req.write(piece);
  }, options.everyMs);
  return {
    answer,
    finish() {
      stopped = true;
      clearInterval(timer);
      while (sent < options.totalBytes) {
        const piece = filler.subarray(0, Math.min(options.chunkBytes, options.totalBytes - sent));
        sent += piece.length;
        req.write(piece);
      }
      req.end(`\r\n--${boundary}--\r\n`);
    },
    stall() {
      stopped = true;
      clearInterval(timer);
    },
    destroy() {
      stopped = true;
      clearInterval(timer);
      req.destroy();
    },
  };
}

/**
 * A multipart create of one file of `totalBytes` (after a `payload` part), written as fast as the
 * server reads it (backpressure honoured): memory stays flat on both sides.
 */
export function bigUpload(baseUrl: string, path: string, token: string, field: string, payload: object, totalBytes: number, filename = "big.txt"): Promise<{ status: number; text: string }> {
  const boundary = "----hashapibig";
  const url = new URL(path, baseUrl);
  const opening = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n${JSON.stringify(payload)}\r\n--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`);
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": String(opening.length + totalBytes + closing.length) } });
    req.on("response", (response) => {
      let text = "";
      response.on("data", (data: Buffer) => (text += data.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < totalBytes) {
        const part = piece.subarray(0, Math.min(piece.length, totalBytes - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once("drain", pump);
      }
      req.end(closing);
    };
    req.write(opening);
    pump();
  });
}

/** A multipart create whose body stops mid-file and whose connection closes: a sender gone. */
export function truncatedUpload(baseUrl: string, token: string): Promise<void> {
  const url = new URL("/api/candidates", baseUrl);
  return new Promise((resolve) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "multipart/form-data; boundary=cut", "Content-Length": "100000" } });
    req.on("error", () => resolve());
    req.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve());
    });
    req.write(`--cut\r\nContent-Disposition: form-data; name="name"\r\n\r\nCut\r\n--cut\r\nContent-Disposition: form-data; name="resume"; filename="cut.pdf"\r\n\r\n%PDF-1.4 a file that never ends`);
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 300);
  });
}
