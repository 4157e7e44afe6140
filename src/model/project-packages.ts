import type { ProjectText } from "../dialects/project-text.js";

/** One line of package.json's dependencies. */
export interface PackageModel {
  name: string;
  version: string;
}

/** What every generated project depends on, whatever its database. */
const common = {
  dependencies: {
    "@prisma/client": "6.19.3",
    "@zxcvbn-ts/language-common": "^4.1.3",
    ajv: "^8.17.1",
    "ajv-formats": "^3.0.1",
    croner: "^11.0.1",
    express: "^5.1.0",
    jsonwebtoken: "^9.0.3",
    nodemailer: "^10.6.1",
    pino: "^10.1.0",
    "prom-client": "^15.1.3",
    "rate-limiter-flexible": "^11.4.0",
    "swagger-ui-express": "^5.0.1",
    tsx: "^4.20.6",
  },
  devDependencies: {
    "@types/express": "^5.0.5",
    "@types/jsonwebtoken": "^9.0.10",
    "@types/node": "^20.19.0",
    "@types/nodemailer": "^8.0.2",
    "@types/swagger-ui-express": "^4.1.8",
    // The admin's build (admin/build.mjs): its pages are Preact components, bundled by esbuild.
    esbuild: "^0.28.2",
    preact: "^11.2.0",
    prisma: "6.19.3",
    typescript: "~5.9.3",
    vitest: "^4.0.8",
  },
};

const sorted = (packages: Readonly<Record<string, string>>): PackageModel[] =>
  Object.entries(packages)
    .sort(([left], [right]) => (left < right ? -1 : 1))
    .map(([name, version]) => ({ name, version }));

/** package.json's dependencies and devDependencies: the common ones and the database's, in name order (as npm writes them). */
export function projectPackages(database: ProjectText): { dependencies: PackageModel[]; devDependencies: PackageModel[] } {
  return {
    dependencies: sorted({ ...common.dependencies, ...database.dependencies }),
    devDependencies: sorted({ ...common.devDependencies, ...database.devDependencies }),
  };
}

/** What a project with file fields adds (runtime files/): multipart, type sniffing, and the AWS SDK where the bucket may be used. */
export function withFilePackages(
  packages: { dependencies: PackageModel[]; devDependencies: PackageModel[] },
  s3: boolean,
): { dependencies: PackageModel[]; devDependencies: PackageModel[] } {
  const added: Record<string, string> = {
    busboy: "^1.6.0",
    "file-type": "^21.3.4",
    "image-size": "^2.1.0",
    ...(s3 ? { "@aws-sdk/client-s3": "^3.1175.0" } : {}),
  };
  const dependencies = Object.fromEntries(packages.dependencies.map(({ name, version }) => [name, version]));
  const devDependencies = Object.fromEntries(packages.devDependencies.map(({ name, version }) => [name, version]));
  return {
    dependencies: sorted({ ...dependencies, ...added }),
    devDependencies: sorted({ ...devDependencies, "@types/busboy": "^1.5.5" }),
  };
}
