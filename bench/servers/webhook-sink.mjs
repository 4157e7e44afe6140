#!/usr/bin/env node
// Webhook receivers for bench/delivery-scale.mjs, in a process of their own (so their work never
// shows in the latency the bench measures): POST /<name> answers 204 at once, or never when the
// name is in HANG (comma-separated); GET /stats says, per receiver, how many messages came, how
// many distinct ones, and the lag of each (arrival time less the event's own timestamp), as
// arrival second → the largest lag of that second. PORT: where to listen (127.0.0.1).
import { createServer } from "node:http";

const hanging = new Set((process.env.HANG ?? "").split(",").filter(Boolean));
const receivers = new Map();
const started = Date.now();

function receiverOf(name) {
  let receiver = receivers.get(name);
  if (!receiver) receivers.set(name, (receiver = { received: 0, ids: new Set(), lagBySecond: {} }));
  return receiver;
}

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/stats") {
    const stats = Object.fromEntries(
      [...receivers].map(([name, receiver]) => [name, { received: receiver.received, distinct: receiver.ids.size, lagBySecond: receiver.lagBySecond }]),
    );
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ started, stats }));
    return;
  }
  if (req.method === "POST" && req.url === "/reset") {
    receivers.clear();
    req.resume();
    res.writeHead(204).end();
    return;
  }
  const name = String(req.url).slice(1);
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    if (hanging.has(name)) return; // never answered: the service's timeout ends the attempt
    const receiver = receiverOf(name);
    receiver.received += 1;
    receiver.ids.add(String(req.headers["webhook-id"]));
    const now = Date.now();
    const lag = now - Date.parse(JSON.parse(body).timestamp);
    const second = Math.floor((now - started) / 1000);
    receiver.lagBySecond[second] = Math.max(receiver.lagBySecond[second] ?? 0, lag);
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("listening\n"));
