/**
 * Colour for people, plain text for pipes and files: on when the stream is a terminal, unless
 * NO_COLOR is set (https://no-color.org) or TERM is dumb; FORCE_COLOR=1 turns it on anywhere
 * (FORCE_COLOR=0 off), as most Node tools do.
 */
export interface Style {
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0";
  return stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== "dumb";
}

export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  const on = colourEnabled(stream, env);
  const code = (open: number, close: number) => (text: string) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { green: code(32, 39), yellow: code(33, 39), red: code(31, 39), bold: code(1, 22), dim: code(2, 22) };
}

/**
 * How long a step runs before it is worth a line: a second, or HASHAPI_SLOW_STEP_MS (a whole number
 * of milliseconds; 0 shows every step), so that a test or a CI log decides it instead of the speed
 * of the machine.
 */
export function slowStepMs(env: NodeJS.ProcessEnv = process.env): number {
  const configured = env.HASHAPI_SLOW_STEP_MS;
  return configured !== undefined && /^\d+$/.test(configured) ? Number(configured) : 1_000;
}

/**
 * Runs `work`, and on a terminal says what is going on when it takes longer than `slowAfterMs`: a
 * line when it starts to be slow, another with its time when it ends. Silent on pipes and files.
 */
/**
 * `--verbose`: every step said when it ends, with its time, whatever the terminal (a step as `step`
 * reports it only when slow, and only on a terminal).
 */
export async function timedStep<T>(
  label: string,
  work: Promise<T>,
  stream: Pick<NodeJS.WriteStream, "write"> = process.stderr,
): Promise<T> {
  const started = performance.now();
  try {
    return await work;
  } finally {
    stream.write(`✓ ${label} (${Math.round(performance.now() - started)} ms)\n`);
  }
}

export async function step<T>(
  label: string,
  work: Promise<T>,
  stream: Pick<NodeJS.WriteStream, "isTTY" | "write"> = process.stderr,
  slowAfterMs = slowStepMs(),
): Promise<T> {
  if (!stream.isTTY) return work;
  const started = performance.now();
  const slow = setTimeout(() => stream.write(`… ${label}\n`), slowAfterMs);
  try {
    return await work;
  } finally {
    clearTimeout(slow);
    const elapsed = performance.now() - started;
    if (elapsed >= slowAfterMs) stream.write(`✓ ${label} (${(elapsed / 1000).toFixed(1)} s)\n`);
  }
}

/** Notices (not errors) go to stderr, so that stdout stays the command's own output. */
export function notice(text: string): void {
  process.stderr.write(`${text}\n`);
}
