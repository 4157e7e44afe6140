// The peer's Prisma client: the generated project's own built client (so the schema is the same),
// on the better-sqlite3 adapter, with the pragmas the service sets (or on the pg adapter).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

export async function connectPrisma(projectDir, url) {
  const { PrismaClient, Prisma } = await import(pathToFileURL(join(projectDir, "dist/prisma-client/client.js")).href);
  // On PostgreSQL (bench/postgresql.mjs): the pg adapter, a pool of 10 as the service's.
  if (url.startsWith("postgresql://")) return { prisma: new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }) }), Prisma };
  const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
  await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await prisma.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
  await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  await prisma.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  return { prisma, Prisma };
}

/** The column of a UNIQUE violation (P2002), else undefined. */
export function uniqueViolationOn(error, Prisma) {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return undefined;
  // With a driver adapter Prisma leaves meta.target empty and names the columns in the cause.
  const target = error.meta?.target ?? error.meta?.driverAdapterError?.cause?.constraint?.fields;
  return Array.isArray(target) ? target[0] : typeof target === "string" ? target : undefined;
}
