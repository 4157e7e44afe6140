import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem, loadSpecsDir, parseSpecFile, validateSpecs, type LoadedSpecs } from "../../src/spec/index.js";
import { appointment, doctor, errorCases, patient } from "./cases.js";

function validate(files: Record<string, string>) {
  const loaded: LoadedSpecs = { project: null, resources: [], problems: [] };
  for (const [name, text] of Object.entries(files)) {
    const { loaded: file, problems } = parseSpecFile(`specs/${name}`, text);
    loaded.problems.push(...problems);
    if (problems.length > 0) {
      if (file.unreadableName) (loaded.unreadableNames ??= []).push(file.unreadableName);
      continue;
    }
    if (name === "hashapi.yaml") loaded.project = file;
    else loaded.resources.push(file);
  }
  return validateSpecs(loaded);
}

describe("spec errors: exact message, file, line and column", () => {
  it.each(errorCases)("%s", (_title, files, expected) => {
    const { problems, specs } = validate(files);
    expect(problems.map(formatProblem)).toEqual(expected);
    expect(specs).toBeUndefined();
  });

  it("reports the problems of every file together, sorted", () => {
    const { problems } = validate({ "a.yaml": "name: patient\nfields:\n  name: { type: string }\n", "b.yaml": "name: Doctor\nfields:\n  name: { type: strin }\n" });
    expect(problems.map((problem) => `${problem.file}:${problem.line}`)).toEqual(["specs/a.yaml:1", "specs/b.yaml:3"]);
  });
});

describe("valid specs", () => {
  it("accepts the clinic and applies the defaults", () => {
    const { problems, specs } = validate({ "patient.yaml": patient, "doctor.yaml": doctor, "appointment.yaml": appointment });
    expect(problems).toEqual([]);
    expect(specs!.project).toEqual({
      name: "hashapi-api",
      database: "sqlite",
      deploy: "restart",
      out: "generated",
      auth: { roles: ["user"], defaultRole: "user", declaresRoles: false, ttl: 3600, refreshTtl: 1209600, user: { fields: [] }, passwords: { min: 8 }, tokens: { signupMinutes: 1440, resetMinutes: 60, invitationDays: 7 } },
      pagination: { defaultPerPage: 15, maxPerPage: 100 },
      webhooks: [],
      jobs: {},
      schedules: [],
      storage: {
        driver: "${STORAGE_DRIVER}",
        bucket: "${S3_BUCKET}",
        endpoint: "${S3_ENDPOINT}",
        region: "${S3_REGION}",
        folder: "data/files",
        urlTtlSeconds: 300,
        uploadTtlSeconds: 3600,
        orphanHours: 24,
        concurrentUploads: 8,
        idleSeconds: 30,
      },
    });
    const patientSpec = specs!.resources.find((resource) => resource.name === "Patient")!;
    expect(patientSpec.fields.map((field) => field.name)).toEqual(["name", "cpf"]);
    expect(patientSpec.file).toBe("specs/patient.yaml");
  });
});

describe("explicit create rules and what the server sets", () => {
  it("does not ask create rules to require a set: date, a set: relation or a direct owner", () => {
    const files = {
      "hashapi.yaml": "name: clinic\nauth:\n  roles: [admin, nurse]\n",
      "note.yaml": [
        "name: Note",
        "fields:",
        "  body: { type: string }",
        "  reviewed_on: { type: date, set: write }",
        "relations:",
        "  author: { type: belongsTo, resource: User, required: true }",
        "  editor: { type: belongsTo, resource: User, required: true, set: create }",
        "owner: { relation: author, bypass: [admin] }",
        "rules:",
        "  create:",
        "    body: [required, string]",
        "",
      ].join("\n"),
    };
    const { problems } = validate(files);
    expect(problems.map(formatProblem)).toEqual([]);
  });
});

describe("eagerLoad and who reads what it nests", () => {
  it("accepts an owned resource nested in records owned through it, and one every reader may show", () => {
    const files = {
      "hashapi.yaml": "name: desk\nauth:\n  roles: [admin, clerk, customer]\n",
      "ticket.yaml": "name: Ticket\nfields:\n  title: { type: string }\nrelations:\n  opener: { type: belongsTo, resource: User }\nowner: { relation: opener, bypass: [admin] }\nauth:\n  roles: { show: [admin, clerk, customer] }\n",
      "comment.yaml": "name: Comment\nfields:\n  body: { type: text }\nrelations:\n  ticket: { type: belongsTo, resource: Ticket, required: true }\n  topic: { type: belongsTo, resource: Topic }\neagerLoad: [ticket, topic]\nowner: { relation: ticket.opener, bypass: [admin] }\n",
      "topic.yaml": "name: Topic\nfields:\n  label: { type: string }\nauth:\n  public: [show]\n  roles: { index: [admin] }\n",
    };
    expect(validate(files).problems.map(formatProblem)).toEqual([]);
  });
});

describe("loading a folder", () => {
  it("reads *.yaml and *.yml in name order, the project file apart", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hashapi-specs-"));
    try {
      await writeFile(join(dir, "hashapi.yaml"), "name: clinic\n");
      await writeFile(join(dir, "patient.yml"), patient);
      await writeFile(join(dir, "doctor.yaml"), doctor);
      await writeFile(join(dir, "notes.txt"), "ignored");
      const loaded = await loadSpecsDir(dir, "specs");
      expect(loaded.project?.source.file).toBe("specs/hashapi.yaml");
      expect(loaded.resources.map((file) => file.source.file)).toEqual(["specs/doctor.yaml", "specs/patient.yml"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["a missing folder", "nope", 'specs folder "nope" does not exist; create one with `hashapi init nope`'],
  ])("names %s", async (_title, dir, message) => {
    await expect(loadSpecsDir(join(tmpdir(), "hashapi-no-such-dir"), dir)).rejects.toThrow(message);
  });

  it("refuses a folder without resource specs", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hashapi-specs-"));
    try {
      await writeFile(join(dir, "hashapi.yaml"), "name: clinic\n");
      await expect(loadSpecsDir(dir, "specs")).rejects.toThrow('specs folder "specs" holds no resource spec (*.yaml)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
