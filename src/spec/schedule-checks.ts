import { Cron } from "croner";
import { didYouMean } from "./problem.js";
import type { SpecSource } from "./source.js";
import type { Problem, ProjectSpec } from "./types.js";

/**
 * hashapi.yaml `schedules`: names used once, each naming a job of `jobs:`, with a cron expression
 * and a time zone that can be read (by croner, the library the service reads them with).
 */
export function checkSchedules(project: ProjectSpec, source: SpecSource): Problem[] {
  const problems: Problem[] = [];
  const jobs = Object.keys(project.jobs);
  const seen = new Set<string>();
  project.schedules.forEach((schedule, index) => {
    const at = ["schedules", index];
    if (seen.has(schedule.name)) problems.push(source.problem([...at, "name"], `a second schedule named "${schedule.name}": each needs a name of its own`));
    seen.add(schedule.name);
    if (!jobs.includes(schedule.job))
      problems.push(source.problem([...at, "job"], `no job named "${schedule.job}"${didYouMean(schedule.job, jobs)}: a schedule runs a job of hashapi.yaml's jobs (${jobs.length > 0 ? jobs.join(", ") : "none declared"})`));
    const problem = cronProblem(schedule.cron, schedule.timezone ?? "UTC");
    if (problem !== undefined) problems.push(source.problem([...at, problem.key], problem.message));
  });
  return problems;
}

function cronProblem(cron: string, timezone: string): { key: "cron" | "timezone"; message: string } | undefined {
  try {
    new Cron(cron);
  } catch (error) {
    return { key: "cron", message: `"${cron}" is not a cron expression: ${error instanceof Error ? error.message : String(error)}; write five fields (minute hour day month weekday), e.g. "0 3 * * *"` };
  }
  try {
    new Cron(cron, { timezone }).nextRun();
  } catch {
    return { key: "timezone", message: `"${timezone}" is not a time zone: name one of the IANA database, e.g. UTC, Europe/Lisbon, America/Sao_Paulo` };
  }
  return undefined;
}
