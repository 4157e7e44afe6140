// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { propertyOf } from "../base/records.js";

/*
 * One POST of a webhook's message, on node:http with a keep-alive agent per receiver: WHATWG fetch
 * spent most of a delivery's CPU on its streams and signals, measured (bench/README.md, issue 45).
 * Redirects are not followed; the answer's body is read only to keep the connection (and at most
 * `maxAnswerBytes` of it: a huge answer costs its receiver a new connection, not our memory).
 */

/** An attempt's answer: the receiver's status (null: none came) and what went wrong, if anything. */
export interface PostOutcome {
  readonly status: number | null;
  readonly error: string | null;
}

const maxAnswerBytes = 65_536;
const agents = new Map<string, HttpAgent>();

/** The keep-alive agent of one receiver (by its name): up to `sockets` connections. */
function agentOf(receiver: string, url: URL, sockets: number): HttpAgent {
  const key = `${receiver} ${url.protocol}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const options = { keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets };
    agent = url.protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** POSTs `body` with `headers` to `url` within `timeoutMs`: a 2xx is delivered, anything else is not. */
export function post(
  receiver: { readonly name: string; readonly url: URL; readonly concurrency: number },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostOutcome> {
  const { url } = receiver;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const request = send(url, {
      method: "POST",
      agent: agentOf(receiver.name, url, receiver.concurrency),
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on("response", (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const delivered = status >= 200 && status < 300;
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > maxAnswerBytes) response.destroy();
      });
      const done = () => finish({ status, error: delivered ? null : `answered ${status}` });
      response.on("end", done);
      response.on("close", done);
      response.on("error", done);
    });
    request.on("error", (error) => finish({ status: null, error: describe(error) }));
    request.end(body);
  });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return "the request failed";
  const code = propertyOf(error, "code");
  return typeof code === "string" ? code : error.message;
}
