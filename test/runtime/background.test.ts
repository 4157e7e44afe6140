import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coalesced } from "../../runtime/common/src/base/coalesced.js";
import { eventMatcher } from "../../runtime/common/src/events/receivers.js";
import { handlerReceivers } from "../../runtime/common/src/events/handlers.js";
import { nextAttempt, signature } from "../../runtime/common/src/events/webhooks.js";
import { JobQueue, jobRetryAt } from "../../runtime/common/src/jobs/jobs.js";
import { scheduleProblem } from "../../runtime/common/src/jobs/schedules.js";
import { runToEnd } from "../../runtime/common/src/base/run-to-end.js";
import { delayedSignal } from "../../runtime/common/src/base/signal.js";

/**
 * The pure parts of the service's background work (issue 45): which events a receiver hears, when
 * a failed delivery or job is tried again, how a signal and a coalesced task behave, a handler's and
 * a job's declarations checked at start-up. Each a small table of cases, or a property.
 */

describe("event patterns", () => {
  it.each([
    [["ticket.created"], "ticket.created", true],
    [["ticket.created"], "ticket.updated", false],
    [["ticket.*"], "ticket.tags.attached", true],
    [["ticket.*"], "tickets.created", false],
    [["*"], "user.deleted", true],
    [["comment.*", "ticket.created"], "comment.restored", true],
  ])("%j hears %s: %s", (patterns, type, heard) => expect(eventMatcher(patterns)(type)).toBe(heard));
});

describe("when a failed attempt is tried again", () => {
  const eventAt = new Date("2026-01-01T00:00:00Z");
  const now = new Date("2026-01-01T00:00:10Z");
  it.each([
    [1, 5_000],
    [2, 30_000],
    [3, 120_000],
    [6, 3_600_000],
    [9, 3_600_000],
  ])("a delivery after attempt %i waits %i ms", (attempts, waitMs) => {
    expect(nextAttempt(attempts, eventAt, 24, 5_000, now)!.getTime() - now.getTime()).toBe(waitMs);
  });

  it("gives a delivery up once its retry time from the event is spent", () => {
    expect(nextAttempt(3, eventAt, 0.01, 5_000, now)).toBeNull();
  });

  it("retries a job until its attempts are spent, never sooner than the base", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 10_000 }), (attempt, attempts, base) => {
        const next = jobRetryAt(attempt, attempts, base, now);
        if (attempt >= attempts) return next === null;
        return next !== null && next.getTime() - now.getTime() >= base && next.getTime() - now.getTime() <= base * 720;
      }),
    );
  });
});

describe("Standard Webhooks signatures", () => {
  it("signs id.timestamp.body with HMAC-SHA256 of the secret's bytes, as v1,<base64>", () => {
    // The specification's own example (secret, id, timestamp, body, signature).
    const secret = Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64");
    expect(signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });
});

describe("a coalesced task", () => {
  it("runs once at a time, and once more for every burst of asks during a run", async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const task = coalesced(
      () => {
        runs += 1;
        return new Promise<void>((resolve) => (release = resolve));
      },
      () => undefined,
    );
    task.run();
    task.run();
    task.run();
    expect(runs).toBe(1);
    release();
    await new Promise((done) => setTimeout(done, 0));
    expect(runs).toBe(2);
    release();
    await task.idle();
    expect(runs).toBe(2);
  });
});

describe("a delayed signal", () => {
  it("tells its listeners once for a burst of notifications, after the delay", async () => {
    const signal = delayedSignal(10);
    let told = 0;
    const stop = signal.subscribe(() => (told += 1));
    for (let index = 0; index < 5; index += 1) signal.notify();
    expect(told).toBe(0);
    await new Promise((done) => setTimeout(done, 30));
    expect(told).toBe(1);
    signal.fire();
    expect(told).toBe(2);
    stop();
    signal.fire();
    expect(told).toBe(2);
  });
});

describe("the project's own code, checked at start-up", () => {
  it("refuses a handler key that is no event type, and a concurrency out of bounds", () => {
    expect(() => handlerReceivers({ "ticket.closed": () => undefined })).toThrow(/"ticket.closed" is not an event type/);
    expect(() => handlerReceivers({ "ticket.*": { handle: () => undefined, concurrency: 0 } })).toThrow(/concurrency of "ticket\.\*"/);
    expect(handlerReceivers({ "ticket.*": { handle: () => undefined, seeds: true } })).toEqual([expect.objectContaining({ name: "on ticket.*", seeds: true, concurrency: 8 })]);
  });

  it("refuses jobs declared without code, and code for undeclared jobs", () => {
    const settings = { welcome: { attempts: 3, timeoutMs: 1_000, concurrency: 1 } };
    expect(() => new JobQueue(settings, {})).toThrow(/src\/custom\/jobs\/welcome.ts exports no function `job` for the job "welcome"/);
    expect(() => new JobQueue(settings, { welcome: () => undefined, stray: () => undefined })).toThrow(/"stray", which hashapi.yaml's jobs do not declare/);
    expect(new JobQueue(settings, { welcome: () => undefined }).jobNames).toEqual(["welcome"]);
  });

  it("says what is wrong with a schedule's cron or time zone", () => {
    expect(scheduleProblem({ cron: "0 3 * * *", timezone: "Europe/Lisbon" })).toBeNull();
    expect(scheduleProblem({ cron: "61 * * * *", timezone: "UTC" })).toMatch(/minute/);
    expect(scheduleProblem({ cron: "0 3 * * *", timezone: "Mars/Base" })).toMatch(/timezone/i);
  });
});

describe("running project code to its end", () => {
  it("waits for code past its deadline and calls it over its time; a throw is its message", async () => {
    const deadline = AbortSignal.timeout(5);
    expect(await runToEnd(() => new Promise((done) => setTimeout(done, 30)), deadline, "over")).toBe("over");
    expect(await runToEnd(() => undefined, new AbortController().signal, "over")).toBeNull();
    expect(await runToEnd(() => { throw new Error("no"); }, new AbortController().signal, "over")).toBe("no");
  });
});
