import { describe, expect, it } from "vitest";
import type { CurrentUser } from "../../runtime/common/src/auth/auth.service.js";
import { assertMayRead, nestedReader } from "../../runtime/common/src/http/nested-access.js";
import { Forbidden } from "../../runtime/common/src/base/errors.js";
import type { StoredRow } from "../../runtime/common/src/data/table.js";

const user = { id: 1, hash: "USR_AAAAAAAA", role: "doctor" } as unknown as CurrentUser;
const page = [
  { hash: "DOC_AAAAAAAA", specialties: [{ hash: "SPC_AAAAAAAA" }, { hash: "SPC_BBBBBBBB" }] },
  { hash: "DOC_BBBBBBBB", specialties: [{ hash: "SPC_CCCCCCCC" }] },
];

/** A policy whose show refuses one hash, answering as `answer` wraps it, and counts its calls. */
function refusing(hash: string, answer: (verdict: boolean) => boolean | Promise<boolean>) {
  const asked: string[] = [];
  return {
    asked,
    show(_user: CurrentUser | undefined, record: StoredRow) {
      asked.push((record as { hash: string }).hash);
      return answer((record as { hash: string }).hash !== hash);
    },
  };
}

describe("assertMayRead (runtime/common/src/http/nested-access.ts)", () => {
  it("asks an overridden show about every nested record, sync or async, and refuses on the first no", async () => {
    for (const answer of [(verdict: boolean) => verdict, async (verdict: boolean) => verdict]) {
      const allowing = refusing("none", answer);
      await assertMayRead({ specialties: nestedReader(true, allowing, undefined, false) }, page, ["specialties"], user);
      expect(allowing.asked).toEqual(["SPC_AAAAAAAA", "SPC_BBBBBBBB", "SPC_CCCCCCCC"]);
      const denying = refusing("SPC_BBBBBBBB", answer);
      await expect(assertMayRead({ specialties: nestedReader(true, denying, undefined, false) }, page, ["specialties"], user)).rejects.toBeInstanceOf(Forbidden);
      expect(denying.asked).toEqual(["SPC_AAAAAAAA", "SPC_BBBBBBBB"]);
    }
  });

  it("asks nothing per record when the related policy keeps the default show", async () => {
    const policy = refusing("SPC_AAAAAAAA", (verdict) => verdict);
    await assertMayRead({ specialties: nestedReader(true, policy, undefined, true) }, page, ["specialties"], user);
    expect(policy.asked).toEqual([]);
  });

  it("still asks an owned resource whether the caller owns a page's belongsTo records", async () => {
    const owned: object[][] = [];
    const reader = nestedReader(
      true,
      {
        show: () => true,
        owns: async (_user, records) => {
          owned.push([...records]);
          return false;
        },
      },
      undefined,
      true,
    );
    const rows = [{ doctor: { hash: "DOC_AAAAAAAA" } }, { doctor: null }];
    await expect(assertMayRead({ doctor: reader }, rows, ["doctor"], user)).rejects.toBeInstanceOf(Forbidden);
    expect(owned).toEqual([[{ hash: "DOC_AAAAAAAA" }]]);
  });
});
