import type { ProjectText } from "./project-text.js";

/** A SQLite project's files: better-sqlite3, one file under data/ (see ProjectText). */
export const sqliteProjectText: ProjectText = {
  dependencies: { "@prisma/adapter-better-sqlite3": "6.19.3", "better-sqlite3": "^11.9.1" },
  devDependencies: { "@types/better-sqlite3": "^7.6.13" },
  prismaAdapterImport: `import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";`,
  prismaAdapter: "new PrismaBetterSQLite3({ url: process.env.DATABASE_URL! })",
  envSettings: "",
  dockerfileSetup: `# The SQLite file lives here: mount a volume on /app/data to keep it.
RUN mkdir -p data && chown node:node data
`,
  readme: (name) => ({
    storage: "SQLite (one file, `data/app.db`)",
    firstRun: "",
    testDatabase: `a SQLite file in a temporary folder, removed
at the end.`,
    dockerRunOptions: ` -v ${name}-data:/app/data`,
    dockerNotes: ` The SQLite file is in \`/app/data\`: keep it
on a volume. \`better-sqlite3\` fetches its prebuilt binary during \`npm ci\`; without network access
there, add build tools (python3, make, g++) to the build stage.`,
    productionSettings: "",
    requestCounts: "Counted in the supervisor's memory, across its workers.",
  }),
};
