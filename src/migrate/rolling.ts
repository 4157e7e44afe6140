import type { ChangeAssessment } from "./changes.js";
import { contractStatements, expandStatements, needsContract, refuseWhatCannotRoll, unionPlan, withTableRenames } from "./expand-contract.js";
import { ownedChanges } from "./owned-sql.js";
import { prismaMigrateDiff } from "./prisma-diff.js";
import type { Renames } from "./renames.js";
import { parseSchemaShape } from "./schema-shape.js";

/** A rolling deploy's two halves (expand-contract.ts); undefined when the change needs no contract. */
export interface RollingSql {
  expand: string;
  contract: string;
}

/**
 * The expand and contract SQL of a change from `previous` (the last migrated snapshot) to
 * `schema` under `deploy: rolling`, or undefined when the old build survives a single migration
 * (nothing renamed, dropped or newly required). Stored events follow the renames in the contract,
 * once no build reads them under the old names.
 */
export async function rollingMigrationSql(previous: string, from: string, schema: string, renames: Renames, assessment: ChangeAssessment, events: string[]): Promise<RollingSql | undefined> {
  // Refused whether or not anything else needs a contract: a type change alone breaks the old build too.
  refuseWhatCannotRoll(parseSchemaShape(withTableRenames(previous, renames)), parseSchemaShape(schema), renames, assessment);
  if (!needsContract(renames, parseSchemaShape(from), parseSchemaShape(schema), assessment)) return undefined;
  const plan = unionPlan(previous, schema, renames, assessment);
  const expandDiff = await prismaMigrateDiff(plan.renamedTables, plan.union);
  const contractDiff = await prismaMigrateDiff(plan.union, schema);
  const around = expandStatements(plan);
  const expandOwned = ownedChanges(plan.renamedTables, plan.union, "postgresql", [expandDiff]);
  const contractOwned = ownedChanges(plan.union, schema, "postgresql", [contractDiff]);
  const expand = [...around.before, ...expandOwned.before, expandDiff, ...around.after, ...expandOwned.after];
  const contract = [
    ...contractStatements(plan),
    ...contractOwned.before,
    contractDiff,
    ...contractOwned.after,
    ...(events.length > 0 ? [`-- Stored events follow: renamed keys and types, dropped keys put out of the way\n${events.join("\n")}\n`] : []),
  ];
  const joined = (parts: string[]) => `${parts.filter((part) => part.trim() !== "").join("\n").trimEnd()}\n`;
  return { expand: joined(expand), contract: joined(contract) };
}
