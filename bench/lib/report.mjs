// The human-readable tables (written to stderr); --json prints the same figures as data.

const integer = (value) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "-");
const decimal = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "-");
// A few logins per second need their decimal; thousands of reads do not.
const rate = (value) => (Number.isFinite(value) && value < 10 ? value.toFixed(1) : integer(value));
const times = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "-");

function table(header, rows) {
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => String(row[index]).length)));
  const line = (cells) => cells.map((cell, index) => (index < 2 ? String(cell).padEnd(widths[index]) : String(cell).padStart(widths[index]))).join("  ");
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

export function mainTable(figures) {
  const rows = [];
  for (const endpoint of figures.endpoints) {
    for (const [index, [name, summary]] of Object.entries(endpoint.servers).entries()) {
      rows.push([index === 0 ? endpoint.label : "", name, rate(summary.requestsPerSecond), decimal(summary.p50Ms), decimal(summary.p99Ms), summary.errors > 0 ? `${summary.errors} !` : "0", integer(summary.rssMiB)]);
    }
    rows.push(["", "service/reference", times(endpoint.ratios.serviceToReference.requestsPerSecond), times(endpoint.ratios.serviceToReference.p50Ms), times(endpoint.ratios.serviceToReference.p99Ms), "", ""]);
    rows.push(["", "service/express-ceiling", times(endpoint.ratios.serviceToCeiling.requestsPerSecond), times(endpoint.ratios.serviceToCeiling.p50Ms), times(endpoint.ratios.serviceToCeiling.p99Ms), "", ""]);
    rows.push(["", "service/peer", times(endpoint.ratios.serviceToPeer.requestsPerSecond), times(endpoint.ratios.serviceToPeer.p50Ms), times(endpoint.ratios.serviceToPeer.p99Ms), "", ""]);
  }
  return table(["endpoint", "server", "req/s", "p50 ms", "p99 ms", "errors", "RSS MiB"], rows);
}

export function scalingTable(scaling, serviceSql) {
  const rows = [];
  for (const size of scaling) {
    for (const [id, figures] of Object.entries(size.endpoints)) {
      rows.push([
        `${integer(size.rows)} (${integer(size.liveRows)} live)`,
        id,
        rate(figures.service.requestsPerSecond),
        rate(figures.reference.requestsPerSecond),
        times(figures.serviceToReference),
        decimal(figures.service.p99Ms),
        decimal(figures.reference.p99Ms),
        figures.service.errors + figures.reference.errors > 0 ? `${figures.service.errors + figures.reference.errors} !` : "0",
      ]);
    }
  }
  const database = scaling.map((size) => [
    integer(size.rows),
    decimal(size.database.countMs, 3),
    decimal(size.database.prismaCountMs, 3),
    decimal(size.database.pageMs.first, 3),
    decimal(size.database.pageMs.middle, 3),
    decimal(size.database.pageMs.last, 3),
    size.database.proofs.showUsesHashIndex ? "yes" : "NO",
    size.database.proofs.pageWalksTheOrderIndex ? "yes" : "NO",
  ]);
  const plans = scaling.at(-1)?.database.plans;
  const planText = plans ? Object.entries(plans).map(([name, details]) => `  ${name.padEnd(5)} ${details.join(" | ")}`).join("\n") : "";
  return [
    table(["rows", "endpoint", "service req/s", "reference req/s", "ratio", "service p99", "reference p99", "errors"], rows),
    "",
    "Database alone (better-sqlite3, the service's own statements; median ms):",
    table(["rows", "COUNT", "Prisma's COUNT (peer)", "page 1", "middle page", "last page", "show on hash index", "page on order index"], database),
    "",
    `Query plans at ${integer(scaling.at(-1)?.rows)} rows:`,
    planText,
    "",
    "The service's statements (captured from the running service):",
    ...Object.entries(serviceSql ?? {}).map(([name, text]) => `  ${name.padEnd(5)} ${text}`),
  ].join("\n");
}

/** Every run with a non-2xx reply, a socket error, or a request the server never answered. */
export function errorSummary(figures) {
  const lines = [];
  for (const endpoint of figures.endpoints)
    for (const [name, rounds] of Object.entries(endpoint.rounds))
      rounds.forEach((round, index) => {
        if (round.errors > 0) lines.push(`  ${endpoint.label} on ${name}, round ${index + 1}: ${round.non2xx} non-2xx, ${round.socketErrors} socket errors (${round.timeouts} timeouts); statuses ${JSON.stringify(round.statusCounts)}`);
        if (round.warmupErrors > 0) lines.push(`  ${endpoint.label} on ${name}, round ${index + 1}: ${round.warmupErrors} non-2xx or socket errors in the warm-up`);
        for (const incident of round.unansweredRequests) lines.push(`  ${endpoint.label} on ${name}, round ${index + 1}: no answer to ${incident.request} after the ${incident.after} within ${incident.waitedSeconds} s (sent again)`);
      });
  for (const size of figures.scaling ?? [])
    for (const [id, servers] of Object.entries(size.endpoints))
      for (const name of ["service", "reference"])
        if (servers[name].errors > 0 || servers[name].warmupErrors > 0 || servers[name].unansweredRequests.length > 0)
          lines.push(`  scaling ${size.rows} rows, ${id} on ${name}: ${servers[name].non2xx} non-2xx, ${servers[name].socketErrors} socket errors, ${servers[name].unansweredRequests.length} unanswered, ${servers[name].warmupErrors} in the warm-up; statuses ${JSON.stringify(servers[name].statusCounts)}`);
  return lines;
}
