// Reading JSON bodies and writing enveloped JSON replies on bare node:http, with the service's
// answers for the body cases (api-contract.md §5: 400, 413, 415, 422 on prototype keys).
import { prototypeKeyErrors } from "../shared/validation.mjs";

const jsonType = /^application\/(?:json|[^;\s]+\+json)\s*(?:;|$)/i;
const nonUtf8Charset = /;\s*charset\s*=\s*"?(?!utf-8)[^;"\s]+/i;

export function sendJson(res, status, payload, headers) {
  const body = JSON.stringify(payload);
  res.writeHead(status, { ...headers, "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export function sendData(res, data, status = 200, headers) {
  sendJson(res, status, { type: "success", status, data }, headers);
}

export function sendError(res, status, message, errors, headers) {
  sendJson(res, status, errors ? { type: "error", status, message, errors } : { type: "error", status, message }, headers);
}

export const invalidData = (res, errors, headers) => sendError(res, 422, "The given data was invalid.", errors, headers);

const tooLarge = Symbol("too large");
const aborted = Symbol("aborted");

function readText(req, limitBytes) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > limitBytes) {
        req.removeAllListeners("data");
        req.resume();
        resolve(tooLarge);
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    // A client that goes away mid-body (a load generator stopping) leaves nothing to answer.
    req.on("close", () => {
      if (!req.complete) resolve(aborted);
    });
    req.on("error", reject);
  });
}

/**
 * The parsed body of a POST, PUT or PATCH ({} when there is none), or undefined after the error
 * reply was sent.
 */
export async function readJsonBody(req, res, limitBytes) {
  const length = Number(req.headers["content-length"] ?? 0);
  if (req.headers["transfer-encoding"] === undefined && !(length > 0)) return {};
  const type = req.headers["content-type"] ?? "";
  if (!jsonType.test(type)) return sendError(res, 415, "Unsupported media type.");
  if (nonUtf8Charset.test(type)) return sendError(res, 415, "Unsupported media type.");
  if (length > limitBytes) return sendError(res, 413, "Payload too large.");
  const text = await readText(req, limitBytes);
  if (text === aborted) return undefined;
  if (text === tooLarge) return sendError(res, 413, "Payload too large.");
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return sendError(res, 400, "Malformed JSON body.");
  }
  const prototypeErrors = prototypeKeyErrors(body);
  return prototypeErrors ? invalidData(res, prototypeErrors) : body;
}
