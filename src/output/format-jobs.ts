import { TemplateError } from "../errors.js";
import { prettierOptions } from "./format-options.js";
import { defaultWorkerCount, formatInWorkers, type FormatJob, type FormatOutcome } from "./format-pool.js";

/**
 * Formats every job and returns the texts in job order. `workers` threads share the work (0: this
 * thread). A file that does not parse is a template bug; the first such file in job order is
 * reported, whichever thread met it first.
 */
export async function formatJobs(jobs: FormatJob[], workers = defaultWorkerCount(jobs.length)): Promise<string[]> {
  // Nothing to format (every file reused or laid out): prettier is not even imported.
  if (jobs.length === 0) return [];
  const batched = batchJobs(jobs);
  const outcomes = workers > 0 ? await formatInWorkers(batched.jobs, workers) : await formatHere(batched.jobs);
  const texts = batched.split(outcomes);
  // A batch that did not parse names no file: format its files one by one to find the one at fault.
  const failed = texts.findIndex((text) => text === undefined);
  if (failed >= 0) {
    const alone = await formatHere(jobs);
    const index = alone.findIndex((outcome) => "error" in outcome);
    const outcome = alone[index];
    if (outcome && "error" in outcome)
      throw new TemplateError(`${jobs[index]!.path} does not parse after rendering (template bug): ${outcome.error}`);
    return alone.map((entry) => (entry as { content: string }).content);
  }
  return texts as string[];
}

/**
 * Prettier's cost is mostly per call: TypeScript files are formatted many to a call, joined with a
 * boundary comment of their own line and split again afterwards. Top-level statements are laid out
 * one by one, so each file comes back exactly as it would alone (format-jobs.test.ts checks it).
 */
const batchParser = "babel-ts";
const filesPerBatch = 400;
const boundary = (index: number) => `// @@hashapi-format-boundary ${index}@@`;
const boundaryLine = /^\/\/ @@hashapi-format-boundary (\d+)@@$/;

interface Batches {
  jobs: FormatJob[];
  split(outcomes: FormatOutcome[]): (string | undefined)[];
}

function batchJobs(jobs: FormatJob[]): Batches {
  const joinable = (job: FormatJob) => job.parser === batchParser && !job.content.startsWith("#!") && !job.content.includes("@@hashapi-format-boundary");
  const singles: { job: FormatJob; index: number }[] = [];
  const joined: { job: FormatJob; index: number }[] = [];
  jobs.forEach((job, index) => (joinable(job) ? joined : singles).push({ job, index }));
  const groups: { index: number }[][] = [];
  for (let start = 0; start < joined.length; start += filesPerBatch) groups.push(joined.slice(start, start + filesPerBatch));
  const batchJobsList: FormatJob[] = [
    ...singles.map(({ job }) => job),
    ...groups.map((group) => ({
      path: `${group.length} files`,
      parser: batchParser,
      content: group.map(({ index }) => `${boundary(index)}\n${jobs[index]!.content}\n`).join(""),
    })),
  ];
  return {
    jobs: batchJobsList,
    split(outcomes) {
      const texts: (string | undefined)[] = new Array(jobs.length).fill(undefined);
      singles.forEach(({ index }, position) => {
        const outcome = outcomes[position]!;
        texts[index] = "content" in outcome ? outcome.content : undefined;
      });
      groups.forEach((_group, number) => {
        const outcome = outcomes[singles.length + number]!;
        if ("content" in outcome) for (const [index, text] of splitBatch(outcome.content)) texts[index] = text;
      });
      return texts;
    },
  };
}

function splitBatch(content: string): Map<number, string> {
  const files = new Map<number, string>();
  let current: number | undefined;
  let lines: string[] = [];
  const close = () => {
    if (current !== undefined) files.set(current, `${lines.join("\n").replace(/^\n+|\n+$/g, "")}\n`);
  };
  for (const line of content.split("\n")) {
    const match = boundaryLine.exec(line);
    if (match) {
      close();
      current = Number(match[1]);
      lines = [];
    } else lines.push(line);
  }
  close();
  return files;
}

/** One after another rather than all at once: the same time, without every syntax tree alive together. */
async function formatHere(jobs: FormatJob[]): Promise<FormatOutcome[]> {
  const { format } = await import("prettier");
  const outcomes: FormatOutcome[] = [];
  for (const { content, parser } of jobs) {
    try {
      outcomes.push({ content: await format(content, { ...prettierOptions, parser }) });
    } catch (error) {
      outcomes.push({ error: (error as Error).message });
    }
  }
  return outcomes;
}
