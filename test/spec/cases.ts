/** Spec error classes: each case is a set of files (name → YAML) and the exact messages expected. */
export const patient = `name: Patient
softDelete: true
fields:
  name: { type: string, max: 120 }
  cpf: { type: string, length: 11, unique: true }
relations:
  appointments: { type: hasMany, resource: Appointment }
`;
export const doctor = `name: Doctor
fields:
  name: { type: string, max: 120 }
`;
export const appointment = `name: Appointment
prefix: APT
fields:
  scheduled_at: { type: datetime }
relations:
  patient: { type: belongsTo, resource: Patient, required: true }
  doctor: { type: belongsTo, resource: Doctor, required: true }
eagerLoad: [patient, doctor]
`;

const rolesProject = "name: shop\nauth:\n  roles: [admin, clerk, customer]\n";

export const errorCases: [string, Record<string, string>, string[]][] = [
  ["auth.roles of a resource without roles in hashapi.yaml", { "a.yaml": "name: Order\nfields:\n  total: { type: integer }\nauth:\n  roles: { index: [admin] }\n" }, ["specs/a.yaml:5:12 auth.roles.index: roles need a list of them in hashapi.yaml (auth: { roles: [admin, …] })"]],
  ["an unknown role, with a suggestion", { "hashapi.yaml": rolesProject, "a.yaml": "name: Order\nfields:\n  total: { type: integer }\nauth:\n  roles: { index: [admin, clerck] }\n" }, ['specs/a.yaml:5:27 auth.roles.index[1]: unknown role "clerck" (hashapi.yaml auth.roles: admin, clerk, customer) (did you mean "clerk"?)']],
  ["roles for a public action", { "hashapi.yaml": rolesProject, "a.yaml": "name: Order\nfields:\n  total: { type: integer }\nauth:\n  public: [show]\n  roles: { show: [admin] }\n" }, ['specs/a.yaml:6:12 auth.roles.show: "show" is in auth.public: a caller without a token has no role. Remove it from auth.public or from auth.roles']],
  ["roles for restore without softDelete", { "hashapi.yaml": rolesProject, "a.yaml": "name: Order\nfields:\n  total: { type: integer }\nauth:\n  roles: { restore: [admin] }\n" }, ['specs/a.yaml:5:12 auth.roles.restore: "restore" exists only for resources with softDelete: true']],
  ["an unknown action under auth.roles", { "hashapi.yaml": rolesProject, "a.yaml": "name: Order\nfields:\n  total: { type: integer }\nauth:\n  roles: { list: [admin] }\n" }, ['specs/a.yaml:5:12 auth.roles.list: unknown key "list"']],
  ["a default role that is not a role", { "hashapi.yaml": "name: shop\nauth:\n  roles: [admin, clerk]\n  defaultRole: clark\n" }, ['specs/hashapi.yaml:4:16 auth.defaultRole: unknown role "clark": it must be one of auth.roles (admin, clerk) (did you mean "clerk"?)']],
  ["role as a user field", { "hashapi.yaml": "name: shop\nauth:\n  user:\n    fields:\n      role: { type: string }\n" }, ["specs/hashapi.yaml:5:7 auth.user.fields.role: every user has a role already: list the roles under auth.roles (and auth.defaultRole), e.g. roles: [admin, staff]"]],
  ["roles not snake_case, or repeated", { "hashapi.yaml": "name: shop\nauth:\n  roles: [Admin, clerk, clerk]\n" }, ["specs/hashapi.yaml:3:10 auth.roles: must not repeat an entry", 'specs/hashapi.yaml:3:11 auth.roles[0]: must be a snake_case role name: lowercase letters, digits and _, starting with a letter, e.g. "admin"']],
  ["YAML syntax: an unclosed [ is shown where it opens", { "a.yaml": "name: [Patient\nfields: {}\n" }, ["specs/a.yaml:1:7 invalid YAML: this [ is never closed (a flow sequence ends with ] on the same line)"]],
  ["YAML syntax: an unclosed { is shown where it opens", { "a.yaml": "name: Patient\nfields:\n  name: { type: string\n  cpf: { type: string }\n" }, ["specs/a.yaml:3:9 invalid YAML: this { is never closed (a flow map ends with } on the same line)"]],
  ["YAML syntax: one tab is one problem, and files that relate to its resource say nothing more", { "a.yaml": patient.replace("  name: { type: string", "\tname: { type: string"), "b.yaml": appointment, "c.yaml": doctor }, ["specs/a.yaml:4:1 invalid YAML: a tab indents this line; YAML indents with spaces only"]],
  ["unknown top-level key with suggestion", { "a.yaml": "name: Patient\nfeilds:\n  name: { type: string }\n" }, ["specs/a.yaml:1:1 missing required key \"fields\"", "specs/a.yaml:2:1 feilds: unknown key \"feilds\" (did you mean \"fields\"?)"]],
  ["missing required key", { "a.yaml": "name: Patient\n" }, ["specs/a.yaml:1:1 missing required key \"fields\""]],
  ["name not PascalCase", { "a.yaml": "name: patient\nfields:\n  name: { type: string }\n" }, ["specs/a.yaml:1:7 name: must be a PascalCase singular class name, e.g. \"MedicalRecord\""]],
  ["unknown field type with suggestion", { "a.yaml": "name: Patient\nfields:\n  name: { type: strng }\n" }, ["specs/a.yaml:3:17 fields.name.type: must be one of string, text, integer, decimal, boolean, date, datetime, email, uuid, enum, json; got \"strng\" (did you mean \"string\"?)"]],
  ["field name not snake_case", { "a.yaml": "name: Patient\nfields:\n  fullName: { type: string }\n" }, ["specs/a.yaml:3:3 fields.fullName: \"fullName\" must be snake_case: lowercase letters, digits and _, starting with a letter"]],
  ["unknown field option with suggestion", { "a.yaml": "name: Patient\nfields:\n  name: { type: string, maxx: 10 }\n" }, ["specs/a.yaml:3:25 fields.name.maxx: unknown key \"maxx\" (did you mean \"max\"?)"]],
  ["option that does not suit the type", { "a.yaml": "name: Patient\nfields:\n  name: { type: string, values: [a] }\n" }, ["specs/a.yaml:3:25 fields.name.values: option \"values\" does not apply to a string field (it takes nullable, default, renamedFrom, backfill, example, max, min, length, pattern, unique)"]],
  ["enum without values", { "a.yaml": "name: Patient\nfields:\n  status: { type: enum }\n" }, ["specs/a.yaml:3:11 fields.status: an enum field needs \"values\", e.g. values: [active, inactive]"]],
  ["enum default not a value", { "a.yaml": "name: Patient\nfields:\n  status: { type: enum, values: [a, b], default: c }\n" }, ["specs/a.yaml:3:50 fields.status.default: must be one of the enum values: a, b"]],
  ["default of the wrong type", { "a.yaml": "name: Patient\nfields:\n  age: { type: integer, default: ten }\n" }, ["specs/a.yaml:3:34 fields.age.default: must be a whole number"]],
  ["min greater than max", { "a.yaml": "name: Patient\nfields:\n  age: { type: integer, min: 10, max: 1 }\n" }, ["specs/a.yaml:3:30 fields.age.min: min (10) must not be greater than max (1)"]],
  ["scale greater than precision", { "a.yaml": "name: Patient\nfields:\n  w: { type: decimal, precision: 3, scale: 4 }\n" }, ["specs/a.yaml:3:44 fields.w.scale: scale (4) must not be greater than precision (3)"]],
  ["invalid pattern", { "a.yaml": "name: Patient\nfields:\n  code: { type: string, pattern: '([' }\n" }, ["specs/a.yaml:3:34 fields.code.pattern: invalid regular expression: /([/u: Unterminated character class"]],
  ["reserved field name", { "a.yaml": "name: Patient\nfields:\n  hash: { type: string }\n" }, ["specs/a.yaml:3:3 fields.hash: \"hash\" is reserved (id, hash, public_id, created_at, updated_at, deleted_at, page, per_page, sort, with, with_trashed); choose another name"]],
  ["field named like a foreign key", { "a.yaml": "name: Appointment\nfields:\n  doctor_id: { type: integer }\nrelations:\n  doctor: { type: belongsTo, resource: Doctor }\n", "b.yaml": doctor }, ["specs/a.yaml:3:3 fields.doctor_id: \"doctor_id\" is the internal foreign key of relation \"doctor\"; choose another name"]],
  ["unknown relation target with suggestion", { "a.yaml": "name: Appointment\nfields:\n  at: { type: datetime }\nrelations:\n  doctor: { type: belongsTo, resource: Docter }\n", "b.yaml": doctor }, ["specs/a.yaml:5:40 relations.doctor.resource: unknown resource \"Docter\" (did you mean \"Doctor\"?)"]],
  ["a typo in a belongsTo target is reported once, without a hasMany cascade", { "a.yaml": patient, "b.yaml": appointment.replace("resource: Patient,", "resource: Patinet,"), "c.yaml": doctor }, ['specs/b.yaml:6:41 relations.patient.resource: unknown resource "Patinet" (did you mean "Patient"?)']],
  ["hasMany without a matching belongsTo", { "a.yaml": patient.replace("appointments: { type: hasMany, resource: Appointment }", "doctors: { type: hasMany, resource: Doctor }"), "b.yaml": doctor }, ["specs/a.yaml:7:39 relations.doctors.resource: hasMany needs a matching belongsTo on Doctor: add relations: { patient: { type: belongsTo, resource: Patient } } to specs/b.yaml"]],
  ["one-word name too short for a prefix", { "a.yaml": "name: Ox\nfields:\n  name: { type: string }\n" }, ["specs/a.yaml:1:7 name: \"Ox\" is too short to derive a public-id prefix from; set prefix: with three uppercase letters"]],
  ["duplicate derived prefix", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\n", "b.yaml": "name: Pattern\nfields:\n  name: { type: string }\n" }, ["specs/b.yaml:1:7 name: prefix \"PAT\" (derived from the name) is also the prefix of Patient (specs/a.yaml); set prefix: with three other letters in this file"]],
  ["derived prefix against an explicit one in a later file: the derived one is told", { "a.yaml": "name: Document\nfields:\n  name: { type: string }\n", "b.yaml": "name: Doctor\nprefix: DOC\nfields:\n  name: { type: string }\n" }, ["specs/a.yaml:1:7 name: prefix \"DOC\" (derived from the name) is also the prefix of Doctor (specs/b.yaml); set prefix: with three other letters in this file"]],
  ["two explicit prefixes alike", { "a.yaml": "name: Document\nprefix: DOC\nfields:\n  name: { type: string }\n", "b.yaml": "name: Doctor\nprefix: DOC\nfields:\n  name: { type: string }\n" }, ["specs/b.yaml:2:9 prefix: prefix \"DOC\" is also the prefix of Document (specs/a.yaml); choose three other letters for one of them"]],
  ["prefix of the built-in User", { "a.yaml": "name: Usher\nprefix: USR\nfields:\n  name: { type: string }\n" }, ["specs/a.yaml:2:9 prefix: prefix \"USR\" is reserved for the built-in User; set an explicit prefix: with three other letters"]],
  ["multi-word derived prefix collides", { "a.yaml": "name: MedicalRecord\nfields:\n  name: { type: string }\n", "b.yaml": "name: Mre\nfields:\n  name: { type: string }\n" }, ["specs/b.yaml:1:7 name: prefix \"MRE\" (derived from the name) is also the prefix of MedicalRecord (specs/a.yaml); set prefix: with three other letters in this file"]],
  ["duplicate resource name", { "a.yaml": doctor, "b.yaml": doctor }, ["specs/b.yaml:1:7 name: resource \"Doctor\" is already defined in specs/a.yaml"]],
  ["unknown rule with suggestion", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nrules:\n  create:\n    name: [required, strng]\n" }, ["specs/a.yaml:6:22 rules.create.name[1]: unknown rule \"strng\" (did you mean \"string\"?)"]],
  ["rule that contradicts the type", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nrules:\n  create:\n    name: [required, integer]\n" }, ["specs/a.yaml:6:22 rules.create.name[1]: rule \"integer\" does not apply to a string field"]],
  ["rule that contradicts an integer field, with its article", { "a.yaml": "name: Patient\nfields:\n  age: { type: integer }\nrules:\n  create:\n    age: [required, email]\n" }, ["specs/a.yaml:6:21 rules.create.age[1]: rule \"email\" does not apply to an integer field"]],
  ["option that does not suit an enum field, with its article", { "a.yaml": "name: Patient\nfields:\n  kind: { type: enum, values: [a], max: 3 }\n" }, ["specs/a.yaml:3:36 fields.kind.max: option \"max\" does not apply to an enum field (it takes nullable, default, renamedFrom, backfill, example, values)"]],
  ["rule with a bad argument", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nrules:\n  create:\n    name: [required, max:ten]\n" }, ["specs/a.yaml:6:22 rules.create.name[1]: rule \"max\" needs one number, e.g. \"max:10\""]],
  ["rule on an unknown field", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nrules:\n  create:\n    nme: [required]\n" }, ["specs/a.yaml:6:5 rules.create: \"name\" must be required on create: it is not nullable and has no default", "specs/a.yaml:6:5 rules.create.nme: unknown field \"nme\" (did you mean \"name\"?)"]],
  ["exists on a plain field", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nrules:\n  update:\n    name: [sometimes, exists]\n" }, ["specs/a.yaml:6:23 rules.update.name[1]: rule \"exists\" does not apply to a string field"]],
  ["nullable rule on a non-nullable field", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nrules:\n  update:\n    name: [nullable, string]\n" }, ["specs/a.yaml:6:12 rules.update.name[0]: rule \"nullable\" on a field that is not nullable: add nullable: true to fields.name"]],
  ["create rules that leave a NOT NULL column empty", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\n  cpf: { type: string }\nrules:\n  create:\n    name: [required]\n" }, ["specs/a.yaml:7:5 rules.create: \"cpf\" must be required on create: it is not nullable and has no default"]],
  ["eagerLoad of an unknown relation", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\neagerLoad: [doctor]\n" }, ["specs/a.yaml:4:13 eagerLoad[0]: unknown relation \"doctor\""]],
  ["serializer naming an unknown field", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nserializer:\n  fields: [name, nmae]\n" }, ["specs/a.yaml:5:18 serializer.fields[1]: unknown field or relation \"nmae\" (did you mean \"name\"?)"]],
  ["public restore without softDelete", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nauth:\n  public: [index, restore]\n" }, ["specs/a.yaml:5:19 auth.public[1]: \"restore\" exists only for resources with softDelete: true"]],
  ["unknown public action", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nauth:\n  public: [list]\n" }, ["specs/a.yaml:5:12 auth.public[0]: must be one of index, store, show, update, destroy, restore; got \"list\""]],
  ["public resource eager-loading a non-public one", { "a.yaml": patient, "b.yaml": appointment + "auth:\n  public: [show]\n", "c.yaml": doctor }, ['specs/b.yaml:8:13 eagerLoad[0]: "patient" is nested in every response of Appointment, whose show is public, but Patient\'s show is not: anonymous callers would get 401. Add show to auth.public in specs/a.yaml, or remove "patient" from eagerLoad', 'specs/b.yaml:8:22 eagerLoad[1]: "doctor" is nested in every response of Appointment, whose show is public, but Doctor\'s show is not: anonymous callers would get 401. Add show to auth.public in specs/c.yaml, or remove "doctor" from eagerLoad']],
  ["project file: unknown database", { "hashapi.yaml": "database: mysql\n", "a.yaml": doctor }, ["specs/hashapi.yaml:1:11 database: must be one of sqlite, postgresql; got \"mysql\""]],
  ["renamed resource without an explicit prefix", { "a.yaml": "name: Client\nrenamedFrom: Patient\nfields:\n  name: { type: string }\n" }, ["specs/a.yaml:2:14 renamedFrom: a renamed resource needs an explicit prefix, or the public ids of its records stop resolving: add prefix: PAT (what Patient had by default)"]],
  ["resource renamed from one that still exists", { "a.yaml": "name: Client\nrenamedFrom: Doctor\nprefix: CLI\nfields:\n  name: { type: string }\n", "b.yaml": doctor }, ["specs/a.yaml:2:14 renamedFrom: \"Doctor\" is still a resource (specs/b.yaml); a table cannot be renamed into two"]],
  ["field renamed from itself", { "a.yaml": "name: Patient\nfields:\n  name: { type: string, renamedFrom: name }\n" }, ["specs/a.yaml:3:38 fields.name.renamedFrom: renamedFrom names the field itself; give its previous name, or remove the key"]],
  ["field renamed from a field that still exists", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\n  full_name: { type: string, renamedFrom: name }\n" }, ["specs/a.yaml:4:43 fields.full_name.renamedFrom: \"name\" is still a field of Patient; a column cannot be renamed into two"]],
  ["example that does not match the field's pattern", { "a.yaml": "name: Patient\nfields:\n  code: { type: string, pattern: \"^[A-Z]{3}$\", example: abc }\n" }, ["specs/a.yaml:3:57 fields.code.example: the example does not match the field's pattern /^[A-Z]{3}$/"]],
  ["example of the wrong type", { "a.yaml": "name: Patient\nfields:\n  age: { type: integer, example: ten }\n" }, ["specs/a.yaml:3:34 fields.age.example: must be a whole number"]],
  ["seed rows without a unique field", { "a.yaml": "name: Patient\nfields:\n  name: { type: string }\nseed:\n  - { name: Ana }\n" }, ["specs/a.yaml:5:3 seed: seed rows are upserted by a unique field, and Patient has none: give one field unique: true"]],
  ["seed row without its key, with an unknown field and a value of the wrong type", { "a.yaml": "name: Patient\nfields:\n  code: { type: string, unique: true }\n  age: { type: integer }\nseed:\n  - { code: A, age: ten }\n  - { agee: 3 }\n" }, ["specs/a.yaml:6:21 seed[0].age: must be a whole number", "specs/a.yaml:7:5 seed[1]: each seed row needs \"code\", the unique field it is upserted by", "specs/a.yaml:7:7 seed[1].agee: unknown field \"agee\" (did you mean \"age\"?)"]],
  ["backfill null", { "a.yaml": "name: Patient\nfields:\n  name: { type: string, backfill: null }\n" }, ["specs/a.yaml:3:35 fields.name.backfill: null is no backfill: existing rows need a value when the field becomes required"]],
  ["backfill of the wrong type", { "a.yaml": "name: Patient\nfields:\n  age: { type: integer, backfill: ten }\n" }, ["specs/a.yaml:3:35 fields.age.backfill: must be a whole number"]],
  ["renamedFrom on a hasMany", { "a.yaml": patient.replace("appointments: { type: hasMany, resource: Appointment }", "appointments: { type: hasMany, resource: Appointment, renamedFrom: visits }"), "b.yaml": appointment, "c.yaml": doctor }, ["specs/a.yaml:7:57 relations.appointments.renamedFrom: \"renamedFrom\" applies to belongsTo only (a hasMany has no column of its own)"]],
];
