// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Server } from "node:http";
import type { Duplex } from "node:stream";

/** Node's parser error codes that have a status of their own; any other parse failure is a 400. */
const statusByCode: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};
const reasons: Record<number, { phrase: string; message: string }> = {
  400: { phrase: "Bad Request", message: "Bad request." },
  408: { phrase: "Request Timeout", message: "Request timeout." },
  431: { phrase: "Request Header Fields Too Large", message: "Request header fields too large." },
};

/**
 * Requests that Node's HTTP parser refuses before Express sees them (a malformed request line,
 * headers over the size limit, a request that took too long) are answered in the JSON envelope like
 * every other error, instead of Node's empty-bodied default.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusByCode[error.code ?? ""] ?? 400;
    const { phrase, message } = reasons[status]!;
    const body = JSON.stringify({ type: "error", status, message });
    socket.end(
      `HTTP/1.1 ${status} ${phrase}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
