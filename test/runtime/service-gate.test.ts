import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startDraining } from "../../runtime/common/src/base/draining.js";
import { readProductionSettings } from "../../runtime/common/src/app/production-settings.js";
import { awaitMigrations, gated } from "../../runtime/common/src/base/service-gate.js";

/** The gate in front of the app (issue 46): waiting for migrations, draining, and what stays open. */
let server: Server | undefined;

afterEach(async () => {
  awaitMigrations([]);
  await new Promise((done) => server?.close(done) ?? done(undefined));
});

async function serve(listener: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the service gate", () => {
  it("while migrations are awaited: probes reach the app, every other request is 503 with Retry-After", async () => {
    const gate = gated((_req, res) => res.end("app"));
    const base = await serve(gate.listener);
    awaitMigrations(["0002_more"]);
    expect(await (await fetch(`${base}/api/health/live`)).text()).toBe("app");
    expect(await (await fetch(`${base}/api/health?x=1`)).text()).toBe("app");
    for (const path of ["/api/patients", "/api/healthy", "/"]) {
      const reply = await fetch(`${base}${path}`);
      expect(reply.status, path).toBe(503);
      expect(reply.headers.get("retry-after")).toBe("5");
      expect(await reply.json()).toEqual({ type: "error", status: 503, message: "The service is not ready." });
    }
    awaitMigrations([]);
    expect(await (await fetch(`${base}/api/patients`)).text()).toBe("app");
  });

  it("counts the requests in flight, and says when the last one ends; refuses new work once told while draining", async () => {
    let release: () => void = () => undefined;
    const gate = gated((_req, res) => {
      release = () => res.end("done");
    });
    const base = await serve(gate.listener);
    let idle = 0;
    gate.onIdle(() => (idle += 1));
    const inFlight = fetch(`${base}/api/patients`).then((reply) => reply.text());
    while (gate.inFlight() === 0) await new Promise((done) => setTimeout(done, 5));
    startDraining();
    gate.refuseNewWork();
    const refused = await fetch(`${base}/api/patients`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ type: "error", status: 503, message: "The service is shutting down." });
    expect(gate.inFlight()).toBe(1);
    release();
    expect(await inFlight).toBe("done");
    while (idle === 0) await new Promise((done) => setTimeout(done, 5));
    expect(gate.inFlight()).toBe(0);
  });
});

describe("SHUTDOWN_DELAY_MS", () => {
  it.each([
    [{}, 0, []],
    [{ SHUTDOWN_DELAY_MS: "2500" }, 2500, []],
    [{ SHUTDOWN_DELAY_MS: "10000" }, 10000, ['SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to less than SHUTDOWN_GRACE_MS (10000), got "10000"']],
    [{ SHUTDOWN_DELAY_MS: "-1" }, -1, ['SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to less than SHUTDOWN_GRACE_MS (10000), got "-1"']],
    [{ SHUTDOWN_DELAY_MS: "soon" }, Number.NaN, ['SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to less than SHUTDOWN_GRACE_MS (10000), got "soon"']],
  ])("%o → %d", (environment, delay, expected) => {
    const problems: string[] = [];
    expect(readProductionSettings(environment, problems).shutdownDelayMs).toBe(delay);
    expect(problems).toEqual(expected);
  });
});
