/** The codes the CLI exits with (README, "CLI reference"); its own file so commands need not import main.ts. */
export type ExitCode = 0 | 1 | 2;
