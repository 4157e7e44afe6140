/**
 * What a generated project's own files say about its database (package.json, prisma.config.ts,
 * .env.example, the Dockerfile, the README): each dialect gives its text, the model fills in the
 * project's name, and the templates lay it out where it goes. Templates name no database.
 */
export interface ProjectText {
  /** npm packages of the driver and of Prisma's adapter for it: name → version range. */
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  /** prisma.config.ts: the adapter's import line, and the expression that builds it from DATABASE_URL. */
  readonly prismaAdapterImport: string;
  readonly prismaAdapter: string;
  /** .env.example: the database's own settings after DATABASE_URL, each line ending in a newline. */
  readonly envSettings: string;
  /** Dockerfile: lines of the final stage before `USER node`, each ending in a newline. */
  readonly dockerfileSetup: string;
  /** The README's words about the database, for the project `name`. */
  readme(name: string): ReadmeText;
}

/** Each fragment where README.md.hbs places it; "" for none. */
export interface ReadmeText {
  /** What the API stores its data in, in the first paragraph. */
  readonly storage: string;
  /** First run: lines before `npm run db:migrate`, each ending in a newline. */
  readonly firstRun: string;
  /** Where `npm test` keeps its database, ending the sentence. */
  readonly testDatabase: string;
  /** `docker run`'s options for the data, after `--env-file .env`. */
  readonly dockerRunOptions: string;
  /** Sentences after the container's health check. */
  readonly dockerNotes: string;
  /** Production settings of this database: list items, each line ending in a newline. */
  readonly productionSettings: string;
  /** Where request counts are kept. */
  readonly requestCounts: string;
}
