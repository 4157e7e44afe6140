import fc from "fast-check";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { cursorPaginate, formEncoded, paginate } from "../../runtime/common/src/http/pagination.js";

/** The links as URLSearchParams builds them: the other parameters kept in order, `parameter` set last. */
function expectedLink(origin: string, path: string, query: Record<string, unknown>, parameter: string, value: string | number): string {
  const kept = new URLSearchParams();
  for (const [key, entry] of Object.entries(query)) if (key !== parameter && typeof entry === "string") kept.set(key, entry);
  kept.set(parameter, String(value));
  return `${origin}${path === "/" ? "" : path}?${kept.toString()}`;
}

const text = fc.string({ unit: fc.constantFrom("a", "Z", "0", "_", "*", "-", ".", " ", "+", "&", "=", "%", "/", "?", "#", "é", "🩺", "\ud800", "~", "!", "'") });

describe("pagination links", () => {
  it("encodes a parameter exactly as URLSearchParams does", () => {
    fc.assert(
      fc.property(text, text, (key, value) => {
        expect(formEncoded(key, value)).toBe(new URLSearchParams([[key, value]]).toString());
      }),
      { numRuns: 5_000 },
    );
  });

  it("keeps the other parameters, sets the page last, and starts with the public origin and the matched path", () => {
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 2 }))), fc.integer({ min: 1, max: 50 }), fc.boolean(), (query, page, matched) => {
        const parsed = Object.assign(Object.create(null) as Record<string, unknown>, query);
        const req = { publicOrigin: "https://api.example.com", routePath: matched ? "/api/doctors" : undefined, baseUrl: "", path: "/api/doctors", query: parsed } as unknown as Request;
        const { links, meta } = paginate(req, page, 15, 300, 15);
        expect(meta.path).toBe("https://api.example.com/api/doctors");
        expect(links.first).toBe(expectedLink("https://api.example.com", "/api/doctors", parsed, "page", 1));
        expect(links.last).toBe(expectedLink("https://api.example.com", "/api/doctors", parsed, "page", 20));
        expect(links.prev).toBe(page > 1 ? expectedLink("https://api.example.com", "/api/doctors", parsed, "page", Math.min(page - 1, 20)) : null);
        expect(links.next).toBe(page < 20 ? expectedLink("https://api.example.com", "/api/doctors", parsed, "page", page + 1) : null);
        const cursors = cursorPaginate(req, 15, { next: "abc", prev: null });
        expect(cursors.links.next).toBe(expectedLink("https://api.example.com", "/api/doctors", parsed, "cursor", "abc"));
      }),
      { numRuns: 2_000 },
    );
  });
});
