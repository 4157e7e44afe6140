// A small HTTP proxy in front of several instances, as a load balancer stands in front of them:
// round robin over the upstreams that accept connections. A request whose upstream refused the
// connection (it never reached a server) goes to the next one; one cut after it was sent is a 502
// (the client cannot know whether it happened: it is not an acknowledged write).
import { createServer, request } from "node:http";
import { freePort } from "./processes.mjs";

export async function startProxy(upstreams) {
  let next = 0;
  const port = await freePort();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => send(Buffer.concat(chunks), 0));
    const send = (body, tried) => {
      const upstream = upstreams[(next += 1) % upstreams.length];
      const forward = request({ host: "127.0.0.1", port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, connection: "keep-alive" } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on("error", (error) => {
        if (error.code === "ECONNREFUSED" && tried + 1 < upstreams.length) return send(body, tried + 1);
        if (!res.headersSent) res.writeHead(502, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ type: "error", status: 502, message: "Bad gateway." }));
      });
      forward.end(body);
    };
  });
  await new Promise((done) => server.listen(port, "127.0.0.1", done));
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(done)) };
}
