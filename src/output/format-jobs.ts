import { format } from "prettier";
import { TemplateError } from "../errors.js";
import { prettierOptions } from "./format-options.js";
import { defaultWorkerCount, formatInWorkers, type FormatJob, type FormatOutcome } from "./format-pool.js";

/**
 * Formats every job and returns the texts in job order. `workers` threads share the work (0: this
 * thread, one file after another). A file that does not parse is a template bug; the first such file
 * in job order is reported, whichever thread met it first.
 */
export async function formatJobs(jobs: FormatJob[], workers = defaultWorkerCount(jobs.length)): Promise<string[]> {
  const outcomes = workers > 0 ? await formatInWorkers(jobs, workers) : await formatHere(jobs);
  return outcomes.map((outcome, index) => {
    if ("error" in outcome) {
      throw new TemplateError(`${jobs[index]!.path} does not parse after rendering (template bug): ${outcome.error}`);
    }
    return outcome.content;
  });
}

/** One after another rather than all at once: the same time, without every syntax tree alive together. */
async function formatHere(jobs: FormatJob[]): Promise<FormatOutcome[]> {
  const outcomes: FormatOutcome[] = [];
  for (const { content, parser } of jobs) {
    try {
      outcomes.push({ content: await format(content, { ...prettierOptions, parser }) });
    } catch (error) {
      outcomes.push({ error: (error as Error).message });
      break;
    }
  }
  return outcomes;
}
