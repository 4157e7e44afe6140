// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createServer, type RequestListener, type Server } from "node:http";
import type { Duplex } from "node:stream";

/** Node's parser error codes that have a status of their own; any other parse failure is a 400. */
const statusByCode: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};
const reasons: Record<number, { phrase: string; message: string }> = {
  400: { phrase: "Bad Request", message: "Bad request." },
  408: { phrase: "Request Timeout", message: "Request timeout." },
  417: { phrase: "Expectation Failed", message: "Expectation failed." },
  431: { phrase: "Request Header Fields Too Large", message: "Request header fields too large." },
};

function envelope(status: number): string {
  return JSON.stringify({ type: "error", status, message: reasons[status]!.message });
}

/** A whole HTTP/1.1 error response in the JSON envelope, for a socket no response object owns. */
function rawResponse(status: number): string {
  const body = envelope(status);
  return `HTTP/1.1 ${status} ${reasons[status]!.phrase}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * The service's HTTP server. Every answer Node would give by itself, before Express sees the
 * request, is given in the JSON envelope instead of Node's empty-bodied default:
 * - a request Node's parser refuses (a malformed request line, headers over the size limit, a
 *   request that took too long): 400, 431, 408;
 * - an `Expect` other than 100-continue: 417 (Node's own is bare);
 * - `CONNECT` (Node closes the socket without a word): 400, the service proxies nothing;
 * - a missing Host is let through (Node would answer a bare 400) so that the app refuses it in the
 *   envelope, as it refuses a duplicate or malformed one (see public-origin.ts).
 */
export function createApiServer(app: RequestListener): Server {
  const server = createServer({ requireHostHeader: false }, app);
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(rawResponse(statusByCode[error.code ?? ""] ?? 400));
  });
  server.on("checkExpectation", (_req, res) => {
    res.shouldKeepAlive = false;
    res.writeHead(417, { "Content-Type": "application/json; charset=utf-8" }).end(envelope(417));
  });
  server.on("connect", (_req, socket: Duplex) => {
    if (socket.writable) socket.end(rawResponse(400));
    else socket.destroy();
  });
  return server;
}
