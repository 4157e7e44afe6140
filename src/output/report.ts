import type { DriftReport } from "./check.js";
import type { ChangeKind, ChangeSet } from "./plan.js";

const labels: Record<ChangeKind, string> = {
  create: "create",
  update: "update",
  delete: "delete",
  unchanged: "same  ",
  "keep-user": "keep  ",
  "keep-migration": "keep  ",
  "orphan-user": "delete",
};

/** How a change's label is shown (colour on a terminal: see src/cli/style.ts); as is by default. */
export type PaintLabel = (kind: ChangeKind, label: string) => string;

export function formatChangeSet(changes: ChangeSet, options: { onlyChanges?: boolean; paint?: PaintLabel } = {}): string {
  const paint = options.paint ?? ((_kind: ChangeKind, label: string) => label);
  const count = (kind: ChangeKind) => changes.filter((change) => change.kind === kind).length;
  const lines = changes
    .filter((change) => !options.onlyChanges || ["create", "update", "delete", "orphan-user"].includes(change.kind))
    .filter((change) => change.kind !== "unchanged")
    .map((change) => {
      const notes: Partial<Record<ChangeKind, string>> = {
        "keep-user": " (yours: never overwritten)",
        "keep-migration": " (migration: never rewritten)",
        "orphan-user": " (yours: its resource or job is gone; --prune-custom)",
      };
      const note = notes[change.kind] ?? "";
      return `${paint(change.kind, labels[change.kind])} ${change.path}${note}`;
    });
  const summary = `${count("create")} created, ${count("update")} updated, ${count("delete") + count("orphan-user")} deleted, ${count("unchanged") + count("keep-user") + count("keep-migration")} unchanged`;
  return [...lines, summary, ""].join("\n");
}

export function formatDriftReport(report: DriftReport): string {
  const lines = [
    ...report.missing.map((path) => `missing   ${path}`),
    ...report.changed.map(({ path }) => `changed   ${path}`),
    ...report.orphaned.map((path) => `orphaned  ${path}`),
    ...report.orphanedUser.map((path) => `orphaned  ${path} (yours: its resource or job is gone; generate --prune-custom deletes it)`),
  ];
  const diffs = report.changed.map(({ diff }) => diff.trimEnd());
  return [...lines, "", ...diffs, "", "Run `hashapi generate` to bring the output up to date.", ""].join("\n");
}
