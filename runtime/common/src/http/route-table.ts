// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { NextFunction, Request, Response } from "express";
import { sendError } from "./envelope.js";

export type Method = "get" | "post" | "put" | "patch" | "delete";
export type Action = (req: Request, res: Response) => void | Promise<void>;
export type Actions = Partial<Record<Method, Action>>;

/** The action each HTTP method asks for (HEAD is GET without the body); any other is a 405. */
const methods: ReadonlyMap<string, Method> = new Map([
  ["GET", "get"],
  ["HEAD", "get"],
  ["POST", "post"],
  ["PUT", "put"],
  ["PATCH", "patch"],
  ["DELETE", "delete"],
]);

/** A path's actions and the Allow header its 405 answers with (HEAD comes with GET). */
interface Endpoint {
  readonly actions: Actions;
  readonly allow: string;
  /** The path as added ("/api/patients/:hash"): what metrics and limits name a route by. */
  readonly template: string;
}

declare module "express-serve-static-core" {
  interface Request {
    /** The template of the route that answers this request, once the route table matched it. */
    routeTemplate?: string;
    /** The path the route table matched (the request's, without its query), once it matched. */
    routePath?: string;
  }
}

/** One level of the path tree: literal segments (lower-cased) first, then one parameter. */
interface PathNode {
  readonly literals: Map<string, PathNode>;
  param?: { readonly name: string; readonly node: PathNode };
  endpoint?: Endpoint;
}

const newNode = (): PathNode => ({ literals: new Map() });

/** A percent-encoding that does not decode is the client's mistake: a 400, as Express answers it. */
class UndecodableSegment extends Error {
  readonly status = 400;
}

function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new UndecodableSegment(`Cannot decode path segment ${JSON.stringify(segment)}`);
  }
}

/**
 * The API's routes in one tree of path segments, looked up in one step per segment instead of
 * Express's walk over a regular expression per route and router. It matches as Express's default
 * router does: literal segments case-insensitively, parameters (`:hash`) as one decoded segment, one
 * optional trailing slash. A known path with another method is a 405 listing the allowed ones; an
 * unknown path falls through to the next middleware.
 */
export class RouteTable {
  private readonly root = newNode();

  add(path: string, actions: Actions): this {
    let node = this.root;
    for (const segment of path.split("/").slice(1)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name)
          throw new Error(`${path}: :${name} where another route has :${node.param.name}`);
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        const literal = segment.toLowerCase();
        let next = node.literals.get(literal);
        if (!next) node.literals.set(literal, (next = newNode()));
        node = next;
      }
    }
    if (node.endpoint) throw new Error(`${path} is routed twice`);
    node.endpoint = { actions, allow: allowHeader(actions), template: path };
    return this;
  }

  /** The endpoint of a path (without its query) and its parameters, or undefined. */
  match(pathname: string): { endpoint: Endpoint; params: Record<string, string> } | undefined {
    if (!pathname.startsWith("/")) return undefined;
    const segments = pathname.split("/");
    segments.shift();
    // One trailing slash is allowed ("/api/patients/"), as in Express's non-strict routing.
    if (segments.length > 1 && segments[segments.length - 1] === "") segments.pop();
    const params: Record<string, string> = {};
    let node: PathNode | undefined = this.root;
    for (const segment of segments) {
      if (segment === "") return undefined;
      const literal: PathNode | undefined = node.literals.get(segment.toLowerCase());
      if (literal) node = literal;
      else if (node.param) {
        params[node.param.name] = decodeSegment(segment);
        node = node.param.node;
      } else return undefined;
    }
    return node.endpoint ? { endpoint: node.endpoint, params } : undefined;
  }

  /** Express middleware answering every routed path; errors (sync or async) go to `next`. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      let found;
      const path = pathOf(req.url);
      try {
        found = this.match(path);
      } catch (error) {
        return next(error);
      }
      if (!found) return next();
      req.routeTemplate = found.endpoint.template;
      req.routePath = path;
      const method = methods.get(req.method);
      const action = method === undefined ? undefined : found.endpoint.actions[method];
      if (!action) {
        res.setHeader("Allow", found.endpoint.allow);
        return sendError(res, 405, "Method not allowed.");
      }
      req.params = found.params;
      try {
        const pending = action(req, res);
        if (pending) pending.catch(next);
      } catch (error) {
        next(error);
      }
    };
  }
}

/**
 * The path of the list or record a request asks for: the one the route table matched, which is
 * Express's `req.baseUrl + req.path` (read here without their getters), or those for a request the
 * route table did not answer.
 */
export function routedPath(req: Request): string {
  return req.routePath ?? `${req.baseUrl}${req.path}`;
}

/**
 * The path of a request target without its query. An absolute-form target
 * (`http://host/api/patients`, RFC 9112 §3.2.2) is routed by its path, as Express routes it.
 */
function pathOf(url: string): string {
  const query = url.indexOf("?");
  const target = query === -1 ? url : url.slice(0, query);
  if (target.startsWith("/")) return target;
  const scheme = target.indexOf("://");
  if (scheme === -1) return target;
  const path = target.indexOf("/", scheme + 3);
  return path === -1 ? "/" : target.slice(path);
}

/** The answer to a path no route and no static file serves. */
export function notFound(_req: Request, res: Response): void {
  sendError(res, 404, "Resource not found.");
}

function allowHeader(actions: Actions): string {
  return Object.keys(actions)
    .flatMap((method) => (method === "get" ? ["GET", "HEAD"] : [method.toUpperCase()]))
    .join(", ");
}
