/** The line generate prints when the dependencies changed. */
export function dependencyNotice(out: string, changes: readonly string[]): string {
  if (changes.length === 0) return "";
  return `\nDependencies changed (${changes.join(", ")}): run \`npm install\` in ${out}.\n`;
}
