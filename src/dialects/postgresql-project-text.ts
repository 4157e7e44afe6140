import type { ProjectText } from "./project-text.js";

/** A PostgreSQL project's files: pg, a server named by DATABASE_URL (see ProjectText). */
export const postgresqlProjectText: ProjectText = {
  dependencies: { "@prisma/adapter-pg": "6.19.3", pg: "^8.16.0" },
  devDependencies: { "@types/pg": "^8.23.1" },
  prismaAdapterImport: `import { PrismaPg } from "@prisma/adapter-pg";`,
  prismaAdapter: "new PrismaPg({ connectionString: process.env.DATABASE_URL! })",
  envSettings: `# Connections per worker process.
DATABASE_POOL_SIZE=10
# The database \`npm test\` uses: each run creates a schema of its own in it, and drops it at the end.
TEST_DATABASE_URL=
# With DATABASE_URL pointing at PgBouncer in transaction mode: the server itself, for migrations
# (their advisory lock needs a session). Setting it also tells the service DATABASE_URL is pooled.
DIRECT_DATABASE_URL=
# Streaming replicas, comma-separated: the reads of GET requests go there (a caller always reads
# their own writes). Unset: every read goes to DATABASE_URL.
DATABASE_REPLICA_URLS=
`,
  dockerfileSetup: "",
  readme: (name) => ({
    storage: "PostgreSQL",
    firstRun: `# set DATABASE_URL in .env to your database, e.g. postgresql://user:password@localhost:5432/${name}
`,
    testDatabase: `a schema of its own in the database of
\`TEST_DATABASE_URL\` (in \`.env\` or the environment, e.g.
\`postgresql://user:password@localhost:5432/${name}_test\`), dropped at the end, so runs
never see each other's rows.`,
    dockerRunOptions: "",
    dockerNotes: "",
    productionSettings: `- Behind PgBouncer in transaction mode, point \`DATABASE_URL\` at the pooler and \`DIRECT_DATABASE_URL\`
  at the server (or add \`pgbouncer=true\` to \`DATABASE_URL\`): \`npm run db:migrate\` uses the direct one,
  the service sends nothing the pooler refuses. Set \`statement_timeout\` on the database role too,
  and PgBouncer's \`server_login_retry\` to a second or two (after a database restart it otherwise
  refuses for up to 15 s).
- Read replicas: \`DATABASE_REPLICA_URLS\` (comma-separated streaming replicas). GET requests read
  there; a caller always reads their own writes (the replica must hold their last write, or the
  primary answers); a replica that does not answer is skipped until it does.
`,
    requestCounts: "Counted in the database, across every instance.",
  }),
};
