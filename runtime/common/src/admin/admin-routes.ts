// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import express, { type Express, type Request, type Response } from "express";
import type { AuthService } from "../auth/auth.service.js";
import { optionalAuth } from "../http/authenticate.js";
import { sendData } from "../http/envelope.js";
import type { RouteTable } from "../http/route-table.js";
import { adminViewFor, type AdminManifestJson } from "./admin-manifest.js";

/**
 * The back office: its pages at /admin (what `npm run build` bundles from admin/ into
 * dist/admin-ui; the same files may be put on a CDN), and GET /api/admin/manifest, the caller's
 * role's view of src/admin/admin.json. Every other request the pages make is an ordinary API call.
 */
export function addAdminManifestRoute(
  routes: RouteTable,
  auth: AuthService,
  manifest: AdminManifestJson,
): void {
  const signIn = { title: manifest.title, mfa: manifest.mfa, reset: manifest.reset };
  routes.add("/api/admin/manifest", {
    get: optionalAuth(auth, (req: Request, res: Response) => {
      // Before signing in: what the sign-in page needs (its title, a second step, a reset by
      // mail), and nothing of the resources.
      const user = req.user;
      sendData(
        res,
        user === undefined ? signIn : adminViewFor(manifest, user.role, user.tenant?.role),
      );
    }),
  });
}

/** dist/admin-ui, from src/admin (tsx) or dist/admin (the build): both two folders down. */
export const adminPagesDir = fileURLToPath(new URL("../../dist/admin-ui/", import.meta.url));

/**
 * Only the page's own origin runs scripts, styles and requests, and nothing frames it; the one
 * other origin is where file fields' bytes live (`filesOrigin`: a bucket's, shown and uploaded to).
 */
export function pagePolicy(filesOrigin: string | undefined): string {
  const files = filesOrigin === undefined ? "" : ` ${filesOrigin}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${files}`,
    `connect-src 'self'${files}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Serves the built pages at /admin/ (gzipped where the browser takes it). */
export function serveAdminPages(
  app: Express,
  filesOrigin: string | undefined,
  dir = adminPagesDir,
): void {
  const policy = pagePolicy(filesOrigin);
  // Relative addresses (app.js) resolve under /admin/ only; Express matches both spellings here.
  app.get("/admin", (req, res, next) =>
    req.originalUrl.split("?")[0] === "/admin" ? res.redirect(301, "/admin/") : next(),
  );
  app.use("/admin", (req, res, next) => {
    res.setHeader("Content-Security-Policy", policy);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    if (!existsSync(dir)) {
      res.status(404).json({ message: "The admin is not built: run `npm run build`." });
      return;
    }
    const gzipped =
      ["/app.js", "/app.css"].includes(req.path) && req.acceptsEncodings("gzip") === "gzip";
    if (gzipped && existsSync(`${dir}${req.path.slice(1)}.gz`)) {
      res.setHeader("Content-Encoding", "gzip");
      res.setHeader("Vary", "Accept-Encoding");
      res.type(req.path.endsWith(".js") ? "text/javascript" : "text/css");
      req.url = `${req.path}.gz`;
    }
    next();
  });
  // no-cache: the browser asks again, and an ETag answers 304 while the build is the same.
  app.use(
    "/admin",
    express.static(dir, {
      index: "index.html",
      cacheControl: true,
      maxAge: 0,
      setHeaders: (res) => res.setHeader("Cache-Control", "no-cache"),
    }),
  );
}
