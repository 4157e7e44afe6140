#!/usr/bin/env node
// The same endpoints as a careful user would write them by hand with Express 5, Prisma 6.19 and
// jsonwebtoken: what our users would pick instead of hashapi.
// Env: PROJECT_DIR (a built generated project, for its Prisma client), DATABASE_URL, PORT, HOST,
// JWT_SECRET, JWT_ISSUER, JWT_AUDIENCE.
import { loadServerConfig } from "./shared/config.mjs";
import { createApp } from "./peer/app.mjs";
import { connectPrisma } from "./peer/database.mjs";

const config = loadServerConfig();
const projectDir = process.env.PROJECT_DIR;
const databaseUrl = process.env.DATABASE_URL;
if (!projectDir || !databaseUrl) {
  process.stderr.write("PROJECT_DIR and DATABASE_URL must be set\n");
  process.exit(1);
}
const { prisma, Prisma } = await connectPrisma(projectDir, databaseUrl);
const server = createApp({ prisma, Prisma, jwt: config.jwt }).listen(config.port, config.host, () => {
  process.stderr.write(`peer listening on http://${config.host}:${server.address().port}\n`);
});

function shutdown() {
  server.close(async () => {
    await prisma.$disconnect();
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(1), 5000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
