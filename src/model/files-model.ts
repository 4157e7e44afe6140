import type { StorageSpec } from "../spec/types.js";
import { withFilePackages, type PackageModel } from "./project-packages.js";

/** What the files' model reads of a resource (a ResourceModel). */
interface ResourceWithFields {
  collection: string;
  fields: readonly { file?: FileRulesModel }[];
}

/** A file field's rules as the runtime reads them (runtime files/file-rules.ts FileRules). */
export interface FileRulesModel {
  label: string;
  maxBytes: number;
  minBytes?: number;
  mimes?: string[];
  mimetypes?: string[];
  image?: boolean;
  dimensions?: Record<string, number>;
}

/** hashapi.yaml's `storage:` for the resources with file fields. */
export interface FilesModel {
  /** The collections whose writes may carry files (multipart). */
  collections: string[];
  /** Whether the bucket may be used (the driver is not a literal `local`): the AWS SDK is a dependency. */
  s3: boolean;
  /** What src/config.ts passes to the runtime's readStorage. */
  declared: Record<string, unknown>;
}

/** A value of `storage:`: `${VARIABLE}` is read from the environment at start-up, anything else is literal. */
function declared(value: string): { env: string } | { literal: string } {
  const variable = /^\$\{([A-Z][A-Z0-9_]*)\}$/.exec(value)?.[1];
  return variable === undefined ? { literal: value } : { env: variable };
}

/**
 * hashapi.yaml's `storage:` as the generated src/config.ts declares it (runtime files/
 * storage-settings.ts reads it), and the resources whose writes carry files; undefined when no
 * resource has a file field (the service then has no storage at all).
 */
function filesModel(storage: StorageSpec, resources: readonly ResourceWithFields[]): FilesModel | undefined {
  const collections = resources.filter((resource) => resource.fields.some((field) => field.file)).map((resource) => resource.collection);
  if (collections.length === 0) return undefined;
  const { folder, urlTtlSeconds, uploadTtlSeconds, orphanHours, concurrentUploads, idleSeconds } = storage;
  const driver = declared(storage.driver);
  return {
    collections,
    // The AWS SDK is a dependency only where the bucket may be used.
    s3: !("literal" in driver && driver.literal === "local"),
    declared: {
      driver,
      bucket: declared(storage.bucket),
      endpoint: declared(storage.endpoint),
      region: declared(storage.region),
      folder,
      urlTtlSeconds,
      uploadTtlSeconds,
      orphanHours,
      concurrentUploads,
      idleSeconds,
    },
  };
}

/** The model with its file fields' storage and the packages they add, when a resource has one. */
export function withFiles<Model extends { files?: FilesModel; database: { packages: { dependencies: PackageModel[]; devDependencies: PackageModel[] } } }>(
  model: Model,
  storage: StorageSpec,
  resources: readonly ResourceWithFields[],
): Model {
  const files = filesModel(storage, resources);
  if (!files) return model;
  model.files = files;
  model.database.packages = withFilePackages(model.database.packages, files.s3);
  return model;
}
