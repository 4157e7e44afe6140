import type { GeneratorDialect, Provider } from "./dialect.js";
import { postgresqlDialect } from "./postgresql.js";
import { sqliteDialect } from "./sqlite.js";

export type { GeneratorDialect, Provider } from "./dialect.js";

/** Every database the generator writes for, by its `database:` name in hashapi.yaml. */
const dialects: Readonly<Record<Provider, GeneratorDialect>> = { sqlite: sqliteDialect, postgresql: postgresqlDialect };

export function dialectOf(provider: Provider): GeneratorDialect {
  return dialects[provider];
}
