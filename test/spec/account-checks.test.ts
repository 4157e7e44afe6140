import { describe, expect, it } from "vitest";
import { parseSpecFile, validateSpecs, type LoadedSpecs } from "../../src/spec/index.js";

/** hashapi.yaml's auth.signup, auth.passwords and mail (issue 48): each mistake named, with why. */
const resource = "name: Note\nfields:\n  title: { type: string }\n";
const problemsOf = (project: string): string[] => {
  const loaded: LoadedSpecs = { project: null, resources: [], problems: [] };
  const parsed = parseSpecFile("specs/hashapi.yaml", project);
  if (parsed.problems.length > 0) return parsed.problems.map((problem) => problem.message);
  loaded.project = parsed.loaded;
  loaded.resources.push(parseSpecFile("specs/note.yaml", resource).loaded);
  return validateSpecs(loaded).problems.map((problem) => problem.message);
};
const mail = 'mail:\n  from: "App <no-reply@example.com>"\n';

describe("account and mail settings (hashapi.yaml)", () => {
  it("accepts sign-up with mail, and applies the defaults", () => {
    expect(problemsOf(`auth:\n  roles: [admin, member]\n  signup: {}\n${mail}`)).toEqual([]);
    expect(problemsOf(`${mail}  transport: \"log:\"\n`)).toEqual([]);
    expect(problemsOf(`${mail}  transport: file:data/mail\n  links: { resetPassword: "https://app.example.com/reset" }\n`)).toEqual([]);
  });

  it("refuses sign-up without mail, into a missing, managing or first role", () => {
    expect(problemsOf("auth:\n  signup: { role: user }\n").join("\n")).toContain("sign-up sends mail");
    expect(problemsOf(`auth:\n  roles: [admin, member]\n  signup: { role: memebr }\n${mail}`).join("\n")).toMatch(/"memebr" is not one of auth.roles .*member/);
    expect(problemsOf(`auth:\n  roles: [admin, clerk, member]\n  users: { manage: [clerk] }\n  signup: { role: clerk }\n${mail}`).join("\n")).toContain("manages users");
    expect(problemsOf(`auth:\n  roles: [admin, member]\n  signup: { role: admin }\n${mail}`).join("\n")).toContain("first (most privileged) role");
  });

  it("refuses a transport it cannot read, a password in the file, a bad sender or link", () => {
    expect(problemsOf(`${mail}  transport: sendmail\n`).join("\n")).toContain("is not a transport");
    expect(problemsOf(`${mail}  transport: smtp://user:hunter2@mail.example.com:587\n`).join("\n")).toContain("read it from the environment");
    expect(problemsOf('mail:\n  from: "not an address"\n').join("\n")).toContain("is not a sender");
    expect(problemsOf(`${mail}  links: { verifyEmail: "javascript:alert(1)" }\n`).join("\n")).toContain("is not a page");
    expect(problemsOf("auth:\n  passwords: { min: 4 }\n").length).toBeGreaterThan(0);
  });
});
