import { createServer } from "node:http";
import express from "express";
import { describe, expect, it } from "vitest";
import { provideParsedQuery } from "../../runtime/common/src/http/request-context.js";

describe("provideParsedQuery (runtime/common/src/http/request-context.ts)", () => {
  it("parses a request's query once, again only when its url changes, over real HTTP", async () => {
    const app = express();
    let parses = 0;
    app.set("query parser", (text: string) => {
      parses += 1;
      return Object.fromEntries(new URLSearchParams(text));
    });
    provideParsedQuery(app);
    app.get("/things", (req, res) => {
      const first = req.query;
      const same = req.query === first && req.query === first;
      const before = parses;
      req.url = "/things?page=9";
      const after = req.query;
      res.json({ first, same, parsesBefore: before, after, parsesAfter: parses });
    });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${port}/things?page=2&name=Ana`);
      expect(await response.json()).toEqual({
        first: { page: "2", name: "Ana" },
        same: true,
        parsesBefore: 1,
        after: { page: "9" },
        parsesAfter: 2,
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
