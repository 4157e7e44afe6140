import type { GeneratorDialect, Provider } from "../dialects/index.js";
import type { ReadmeText } from "../dialects/project-text.js";
import type { PackageModel } from "./project-packages.js";

/** The project's database as the templates and emitters see it. */
export interface DatabaseModel {
  provider: Provider;
  defaultUrl: string;
  dialect: GeneratorDialect;
  /** What the project's files say of the database, with the project's name (dialects/project-text.ts). */
  files: DatabaseFilesModel;
  /** package.json's dependencies, the database's among the common ones, in name order. */
  packages: { dependencies: PackageModel[]; devDependencies: PackageModel[] };
}

/** The database's text in the project's files: the README's fragments and the config files' lines. */
export interface DatabaseFilesModel extends ReadmeText {
  prismaAdapterImport: string;
  prismaAdapter: string;
  envSettings: string;
  dockerfileSetup: string;
}
