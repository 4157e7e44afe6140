// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { FileSettings } from "./files.js";
import type { S3Settings } from "./s3-storage.js";

/** A value of hashapi.yaml's `storage:`: an environment variable to read (`${NAME}`), or the literal. */
export type DeclaredValue = { readonly env: string } | { readonly literal: string };

/** hashapi.yaml's `storage:`, as the generated src/config.ts declares it. */
export interface DeclaredStorage extends FileSettings {
  readonly driver: DeclaredValue;
  readonly folder: string;
  readonly bucket?: DeclaredValue;
  readonly endpoint?: DeclaredValue;
  readonly region?: DeclaredValue;
}

/** Where files go, read at start-up. */
export type StorageChoice =
  | { readonly driver: "local"; readonly folder: string }
  | { readonly driver: "s3"; readonly s3: S3Settings; readonly spool: string };

export interface StorageConfig {
  readonly choice: StorageChoice;
  readonly settings: FileSettings;
}

function read(
  value: DeclaredValue | undefined,
  environment: NodeJS.ProcessEnv,
): string | undefined {
  if (value === undefined) return undefined;
  return "env" in value ? environment[value.env] || undefined : value.literal;
}

function named(value: DeclaredValue | undefined, option: string): string {
  return value !== undefined && "env" in value
    ? `${value.env} (storage.${option})`
    : `storage.${option}`;
}

/**
 * The storage the service writes to: `local` (a folder of this machine) unless the driver says
 * `s3`, which needs a bucket and credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, and
 * AWS_SESSION_TOKEN for temporary ones). Every problem is reported with the others at start-up.
 */
export function readStorage(
  declared: DeclaredStorage,
  environment: NodeJS.ProcessEnv,
  problems: string[],
): StorageConfig {
  const { urlTtlSeconds, uploadTtlSeconds, orphanHours, concurrentUploads, idleSeconds } = declared;
  const settings = { urlTtlSeconds, uploadTtlSeconds, orphanHours, concurrentUploads, idleSeconds };
  // STORAGE_FOLDER moves the folder (the project's own tests keep theirs in a temporary one).
  const folder = environment.STORAGE_FOLDER || declared.folder;
  const local = { choice: { driver: "local" as const, folder }, settings };
  // The project's own tests keep files on disk whatever the driver: they need no bucket.
  if (environment.NODE_ENV === "test") return local;
  const driver = read(declared.driver, environment) ?? "local";
  if (driver === "local") return local;
  if (driver !== "s3") {
    problems.push(`${named(declared.driver, "driver")} must be local or s3, got "${driver}"`);
    return local;
  }
  const bucket = read(declared.bucket, environment);
  if (bucket === undefined)
    problems.push(
      `${named(declared.bucket, "bucket")} must name the bucket when the storage driver is s3`,
    );
  const endpoint = read(declared.endpoint, environment);
  if (endpoint !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(endpoint))
    problems.push(
      `${named(declared.endpoint, "endpoint")} must be an http(s) origin such as https://s3.example.com, got "${endpoint}"`,
    );
  const accessKeyId = environment.AWS_ACCESS_KEY_ID;
  const secretAccessKey = environment.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    problems.push(
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set when the storage driver is s3",
    );
  const sessionToken = environment.AWS_SESSION_TOKEN || undefined;
  const region = read(declared.region, environment) ?? (environment.AWS_REGION || "us-east-1");
  const s3: S3Settings = {
    bucket: bucket ?? "",
    ...(endpoint ? { endpoint } : {}),
    region,
    credentials: {
      accessKeyId: accessKeyId ?? "",
      secretAccessKey: secretAccessKey ?? "",
      ...(sessionToken ? { sessionToken } : {}),
    },
  };
  return { choice: { driver: "s3", s3, spool: `${folder}/.spool` }, settings };
}
