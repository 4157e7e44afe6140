import { createHash, createHmac, createSecretKey, type Hash, type Hmac } from "node:crypto";
import { SignatureV4 } from "@smithy/signature-v4";
import { describe, expect, it } from "vitest";
import { fileProblems, fileMessage, servedInline, type FileRules } from "../../runtime/common/src/files/file-rules.js";
import { fileMetadata, fileName } from "../../runtime/common/src/files/files.js";
import { isStorageKey, isUploadToken, newStorageKey, newUploadToken } from "../../runtime/common/src/files/keys.js";
import { contentDisposition } from "../../runtime/common/src/files/s3-storage.js";
import { UrlSigner } from "../../runtime/common/src/files/signed-urls.js";
import { presignedUrl, uriEncode } from "../../runtime/common/src/files/sigv4.js";
import { sniffType } from "../../runtime/common/src/files/sniff.js";
import { htmlBytes, pdfBytes, png, svgBytes } from "../support/files.js";

/** SHA-256 and its HMAC as the SDK's signer asks for them. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: Uint8Array | string) {
    // The SDK's signer hands an HMAC its key as bytes.
    this.hash = secret === undefined ? createHash("sha256") : createHmac("sha256", secret);
  }
  update(data: Uint8Array | string): void {
    this.hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

const resume: FileRules = { label: "resume", maxBytes: 512 * 1024, mimes: ["pdf", "docx", "txt"] };
const photo: FileRules = { label: "photo", maxBytes: 256 * 1024, image: true, dimensions: { max_width: 2000 } };
const anything: FileRules = { label: "file", maxBytes: 10 * 1024 * 1024 };

describe("files: what a file is and may be", () => {
  it("reads the type from the bytes, SVG and HTML apart from text", async () => {
    expect((await sniffType(pdfBytes)).mime).toBe("application/pdf");
    expect(await sniffType(png(30, 20))).toMatchObject({ mime: "image/png", dimensions: { width: 30, height: 20 } });
    expect((await sniffType(svgBytes)).mime).toBe("image/svg+xml");
    expect((await sniffType(htmlBytes)).mime).toBe("text/html");
    expect((await sniffType(Buffer.from("name,age\nAna,30\n"))).mime).toBe("text/plain");
    expect((await sniffType(Buffer.from([0, 1, 2, 3, 255, 254]))).mime).toBe("application/octet-stream");
  });

  it("decides Laravel's rules on the content, refusing lying names", async () => {
    const check = async (rules: FileRules, name: string, bytes: Buffer) => fileProblems(rules, { name, size: bytes.length, sniffed: await sniffType(bytes) });
    expect(await check(resume, "cv.pdf", pdfBytes)).toEqual([]);
    expect(await check(resume, "cv.pdf", htmlBytes)).toEqual([fileMessage("mimes", resume)]);
    expect(await check(resume, "cv.txt", Buffer.from("plain\n"))).toEqual([]);
    expect(await check(resume, "cv.csv", Buffer.from("a,b\n"))).toEqual([fileMessage("mimes", resume)]);
    expect(await check(anything, "x.png", pdfBytes)).toEqual([fileMessage("mimes", anything)]);
    expect(await check(anything, "page.html", htmlBytes)).toEqual([fileMessage("mimes", anything)]);
    expect(await check(anything, "blob", pdfBytes)).toEqual([]);
    expect(await check(photo, "me.png", png(100))).toEqual([]);
    expect(await check(photo, "me.png", png(2001))).toEqual(["The photo field has invalid image dimensions."]);
    expect(await check(photo, "me.svg", svgBytes)).toEqual(["The photo field must be an image."]);
    expect(await check({ label: "photo", maxBytes: 1024, image: true, mimes: ["svg"] }, "me.svg", svgBytes)).toEqual([]);
    expect(await check(photo, "big.png", Buffer.concat([png(10), Buffer.alloc(300 * 1024)]))).toEqual(["The photo field must not be greater than 256 kilobytes."]);
    expect(await check({ ...anything, mimetypes: ["image/*"] }, "a.png", png(5))).toEqual([]);
    expect(await check({ ...anything, mimetypes: ["image/*"] }, "a.pdf", pdfBytes)).toEqual(["The file field must be a file of type: image/*."]);
    expect(await check({ ...anything, minBytes: 1024 }, "a.pdf", pdfBytes)).toEqual(["The file field must be at least 1 kilobytes."]);
    expect(servedInline(photo, "image/png")).toBe(true);
    expect(servedInline(photo, "image/svg+xml")).toBe(false);
    expect(servedInline(resume, "application/pdf")).toBe(false);
  });

  it("keeps a name's last segment, printable, and random tokens and keys", () => {
    expect(fileName("../../etc/passwd")).toBe("passwd");
    expect(fileName("C:\\Users\\x\\cv.pdf")).toBe("cv.pdf");
    expect(fileName("a\u0000b\u001fc.pdf")).toBe("abc.pdf");
    expect(fileName("..")).toBe("file");
    expect(fileName("\uD800x.pdf")).toBe("\uFFFDx.pdf");
    expect([...fileName("é".repeat(400))].length).toBe(255);
    const token = newUploadToken();
    expect(isUploadToken(token) && !isUploadToken(`${token}x`) && token !== newUploadToken()).toBe(true);
    expect(isStorageKey(newStorageKey()) && !isStorageKey("../x")).toBe(true);
    expect(fileMetadata({ key: "k", name: "n", size: 1, type: "t" })).toEqual({ name: "n", size: 1, type: "t" });
    expect(contentDisposition({ name: "cv.pdf", type: "application/pdf", inline: false })).toBe('attachment; filename="cv.pdf"');
    expect(contentDisposition({ name: 'résumé "1".pdf', type: "application/pdf", inline: true })).toBe(`inline; filename="r_sum_ _1_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22.pdf`);
  });
});

describe("files: signed URLs", () => {
  it("signs the local driver's URLs over method, name and expiry, and refuses any change", () => {
    const signer = new UrlSigner(createSecretKey(Buffer.from("a".repeat(40))));
    const other = new UrlSigner(createSecretKey(Buffer.from("b".repeat(40))));
    const expires = new Date(Date.now() + 60_000);
    const query = new URLSearchParams(signer.query("GET", "abc", expires));
    const [e, s] = [query.get("expires")!, query.get("signature")!];
    expect(signer.grants("GET", "abc", e, s)).toBe(true);
    expect(signer.grants("PUT", "abc", e, s)).toBe(false);
    expect(signer.grants("GET", "abd", e, s)).toBe(false);
    expect(signer.grants("GET", "abc", String(Number(e) + 1), s)).toBe(false);
    expect(other.grants("GET", "abc", e, s)).toBe(false);
    expect(signer.grants("GET", "abc", e, s, new Date(Date.now() + 120_000))).toBe(false);
    expect(signer.grants("GET", "abc", e, "zz")).toBe(false);
    expect(signer.grants("GET", "abc", undefined, s)).toBe(false);
  });

  it("presigns S3 URLs exactly as the AWS SDK's own signer does", async () => {
    const credentials = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };
    const now = new Date("2026-11-30T12:00:00Z");
    for (const [endpoint, key, query] of [
      ["https://s3.eu-west-1.amazonaws.com", "ab/cdef", {}],
      ["http://127.0.0.1:9000", "x y+z~é", { "response-content-type": "image/png" }],
    ] as const) {
      const ours = new URL(presignedUrl(credentials, { method: "GET", endpoint: new URL(endpoint), bucket: "my-bucket", key, region: "eu-west-1", expiresSeconds: 300, query, now }));
      const url = new URL(endpoint);
      const request = { method: "GET", protocol: url.protocol, hostname: url.hostname, ...(url.port ? { port: Number(url.port) } : {}), path: `/my-bucket/${uriEncode(key, true)}`, query: { ...query } as Record<string, string>, headers: { host: url.host, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" } };
      const signer = new SignatureV4({ credentials, region: "eu-west-1", service: "s3", sha256: Sha256 as never, uriEscapePath: false, applyChecksum: false });
      const presigned = await signer.presign(request, { expiresIn: 300, signingDate: now, unsignableHeaders: new Set(["x-amz-content-sha256"]), unhoistableHeaders: new Set(["x-amz-content-sha256"]) });
      expect(ours.searchParams.get("X-Amz-Signature")).toBe(presigned.query?.["X-Amz-Signature"]);
      expect(ours.pathname).toBe(`/my-bucket/${uriEncode(key, true)}`);
    }
  });
});
