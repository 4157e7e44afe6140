import { fork } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { sendIfConnected } from "../../runtime/common/src/base/ipc.js";

/** A real child process with an IPC channel that exits at once, awaited until its parent knows. */
async function deadChild() {
  const child = fork("-e", ["process.exit(0)"], { execArgv: [], stdio: ["ignore", "ignore", "ignore", "ipc"] });
  const errors: Error[] = [];
  child.on("error", (error) => errors.push(error));
  await once(child, "exit");
  return { child, errors };
}

const nextTicks = () => new Promise((done) => setImmediate(done));

describe("sendIfConnected (runtime/common/src/base/ipc.ts)", () => {
  it("drops a message to a child that died, where a bare send raises an 'error' event that would end the sender", async () => {
    const bare = await deadChild();
    bare.child.send({ type: "hashapi:metrics-collect", id: 1 });
    await nextTicks();
    expect(bare.errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(["ERR_IPC_CHANNEL_CLOSED"]);

    const guarded = await deadChild();
    sendIfConnected(guarded.child, { type: "hashapi:metrics-collect", id: 1 });
    await nextTicks();
    expect(guarded.errors).toEqual([]);
  });

  it("delivers to a child that is alive, and is a no-op where there is no channel", async () => {
    const child = fork("-e", ["process.once('message', (m) => process.send(m, () => process.exit(0)))"], { execArgv: [], stdio: ["ignore", "ignore", "ignore", "ipc"] });
    const echoed = once(child, "message");
    sendIfConnected(child, { type: "ping", id: 7 });
    expect((await echoed)[0]).toEqual({ type: "ping", id: 7 });
    await once(child, "exit");
    expect(() => sendIfConnected({}, "nobody listens")).not.toThrow();
  });
});
