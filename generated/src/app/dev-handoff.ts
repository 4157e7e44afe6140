// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { propertyOf } from "../base/records.js";
import { sendIfConnected } from "../base/ipc.js";
import type { Server } from "node:http";
import type { Socket } from "node:net";

/*
 * Under `npm run dev` the runner (dev-server.ts) holds the listening socket and hands each accepted
 * connection to the server process that serves at that moment. A restart starts the next server
 * while the previous one still serves, switches new connections to it once it is ready, and only
 * then stops the previous one: a request sent during a restart waits a moment, and is never refused.
 * This is the server process's half.
 */

/** Set by the runner in its server processes' environment. */
export const handoffVariable = "HASHAPI_DEV_HANDOFF";
/** The message an accepted connection comes with. */
export const connectionMessage = "hashapi:connection";

/** A stopping server process tells the runner it takes no more requests on its kept connections. */
export const drainingMessage = "hashapi:draining";

/** A server process asks the runner to listen where its configuration says. */
export interface ListenRequest {
  type: "hashapi:listen";
  host: string;
  port: number;
}

/** The runner's answer: listening (on this port, for port 0), or why it cannot. */
export type ListenAnswer =
  { type: "hashapi:listening"; port: number } | { type: "hashapi:listen-failed"; message: string };

export function isListenRequest(message: unknown): message is ListenRequest {
  return propertyOf(message, "type") === "hashapi:listen";
}

/** True in a server process of `npm run dev`, whose connections the runner accepts. */
export function handedOff(): boolean {
  return process.env[handoffVariable] === "1" && typeof process.send === "function";
}

/**
 * Serves the connections the runner hands over, once it listens on `host:port`: resolves with the
 * port it listens on, rejects with the reason it cannot (the address in use, say).
 */
export function listenThroughRunner(server: Server, host: string, port: number): Promise<number> {
  const open = new Set<Socket>();
  connections.set(server, open);
  // Node's http server tracks its connections (closeIdleConnections, request timeouts) from its
  // "listening" event on, which a server that never calls listen() must be given.
  server.emit("listening");
  process.on("message", (message: unknown, socket?: Socket) => {
    if (message !== connectionMessage || socket === undefined) return;
    open.add(socket);
    socket.once("close", () => open.delete(socket));
    server.emit("connection", socket);
    socket.resume();
  });
  return new Promise((resolve, reject) => {
    const answered = (message: unknown) => {
      const type = propertyOf(message, "type");
      if (type === "hashapi:listening") resolve(Number(propertyOf(message, "port")));
      else if (type === "hashapi:listen-failed")
        reject(new Error(String(propertyOf(message, "message"))));
      else return;
      process.off("message", answered);
    };
    process.on("message", answered);
    const request: ListenRequest = { type: "hashapi:listen", host, port };
    sendIfConnected(process, request);
  });
}

/**
 * Stops a server whose connections were handed over (it never listened, so `server.close` has
 * nothing to close): each response from now on closes its connection, idle connections close now,
 * and `done` runs once the last one is gone.
 */
export function closeHandedOff(server: Server, done: () => void): void {
  const open = connections.get(server) ?? new Set<Socket>();
  server.prependListener("request", (_request, response) => {
    response.shouldKeepAlive = false;
  });
  server.closeIdleConnections();
  sendIfConnected(process, drainingMessage);
  const check = setInterval(() => {
    server.closeIdleConnections();
    if (open.size > 0) return;
    clearInterval(check);
    done();
  }, 20);
}

/** The live connections of each handed-off server. */
const connections = new WeakMap<Server, Set<Socket>>();
