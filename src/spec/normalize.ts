import type { FieldSpec, MailSpec, ProjectSpec, RelationSpec, ResourceSpec, StorageSpec, TenancySpec } from "./types.js";

/** Raw YAML data (already schema-valid) → the typed spec with fields and relations as ordered lists. */
export function normalizeResource(file: string, data: Record<string, unknown>): ResourceSpec {
  const { fields, relations, ...rest } = data as Omit<ResourceSpec, "fields" | "relations" | "file"> & {
    fields: Record<string, Omit<FieldSpec, "name">>;
    relations?: Record<string, Omit<RelationSpec, "name">>;
  };
  return {
    ...rest,
    file,
    fields: normalizeFields(fields),
    relations: Object.entries(relations ?? {}).map(([name, relation]) => {
      const { pivot, ...rest } = relation as Omit<RelationSpec, "name" | "pivot"> & { pivot?: Record<string, Omit<FieldSpec, "name">> };
      return { name, ...rest, ...(pivot ? { pivot: normalizeFields(pivot) } : {}) };
    }),
  };
}

export function normalizeFields(fields: Record<string, Omit<FieldSpec, "name">> | undefined): FieldSpec[] {
  return Object.entries(fields ?? {}).map(([name, field]) => {
    // `default: null` on a nullable field says what leaving it out already does: no default, NULL.
    // (On a field that is not nullable it stays, and the field checks refuse it.)
    if (field.default === null && field.nullable === true) {
      const { default: _none, ...rest } = field;
      return { name, ...rest };
    }
    return { name, ...field };
  });
}

type RawProject = {
  name?: string;
  database?: ProjectSpec["database"];
  deploy?: ProjectSpec["deploy"];
  out?: string;
  auth?: {
    roles?: string[];
    defaultRole?: string;
    users?: { manage: string[] };
    ttl?: number;
    refreshTtl?: number;
    user?: { fields?: Record<string, Omit<FieldSpec, "name">> };
    signup?: { role?: string; verify?: boolean };
    mfa?: { required?: string[]; optional?: boolean };
    passwords?: { min?: number };
    tokens?: { signupMinutes?: number; resetMinutes?: number; invitationDays?: number };
    invitations?: string[];
  };
  tenancy?: { resource: string; roles: string[]; manage?: string[]; bypass?: string[]; create?: string[]; adopt?: string };
  mail?: { from: string; transport?: string; links?: Partial<MailSpec["links"]>; limits?: Partial<MailSpec["limits"]> };
  storage?: Partial<StorageSpec>;
  pagination?: Partial<ProjectSpec["pagination"]>;
  webhooks?: ProjectSpec["webhooks"];
  rateLimit?: ProjectSpec["rateLimit"];
  jobs?: Record<string, ProjectSpec["jobs"][string] | null>;
  schedules?: ProjectSpec["schedules"];
};

/** The role of every user of a project whose hashapi.yaml lists no `auth.roles`. */
export const defaultRoleName = "user";

/** The project file with every default of spec-format.md applied. */
export function normalizeProject(data: RawProject | null): ProjectSpec {
  const roles = data?.auth?.roles ?? [defaultRoleName];
  const defaultRole = data?.auth?.defaultRole ?? roles.at(-1)!;
  const signup = data?.auth?.signup;
  return {
    name: data?.name ?? "hashapi-api",
    database: data?.database ?? "sqlite",
    deploy: data?.deploy ?? "restart",
    out: data?.out ?? "generated",
    auth: {
      // Every user has one role; a project that names none has the one role `user`.
      roles,
      defaultRole,
      declaresRoles: data?.auth?.roles !== undefined,
      ...(data?.auth?.users ? { manageUsers: data.auth.users.manage } : {}),
      ttl: data?.auth?.ttl ?? 3600,
      refreshTtl: data?.auth?.refreshTtl ?? 1209600,
      user: { fields: normalizeFields(data?.auth?.user?.fields) },
      ...(signup ? { signup: { role: signup.role ?? defaultRole, verify: signup.verify ?? true } } : {}),
      ...(data?.auth?.mfa ? { mfa: { required: data.auth.mfa.required ?? [], optional: data.auth.mfa.optional ?? true } } : {}),
      passwords: { min: data?.auth?.passwords?.min ?? 8 },
      tokens: {
        signupMinutes: data?.auth?.tokens?.signupMinutes ?? 1440,
        resetMinutes: data?.auth?.tokens?.resetMinutes ?? 60,
        invitationDays: data?.auth?.tokens?.invitationDays ?? 7,
      },
      ...(data?.auth?.invitations ? { invitations: data.auth.invitations } : {}),
    },
    ...(data?.mail ? { mail: normalizeMail(data.mail) } : {}),
    storage: normalizeStorage(data?.storage),
    ...(data?.tenancy ? { tenancy: normalizeTenancy(data.tenancy) } : {}),
    pagination: {
      defaultPerPage: data?.pagination?.defaultPerPage ?? 15,
      maxPerPage: data?.pagination?.maxPerPage ?? 100,
    },
    webhooks: data?.webhooks ?? [],
    ...(data?.rateLimit ? { rateLimit: data.rateLimit } : {}),
    // `send-welcome:` with nothing after it is a job with every default.
    jobs: Object.fromEntries(Object.entries(data?.jobs ?? {}).map(([name, job]) => [name, job ?? {}])),
    schedules: data?.schedules ?? [],
  };
}

/** `tenancy:` with its defaults: every role but the last manages members, every platform role may create a tenant. */
function normalizeTenancy(tenancy: NonNullable<RawProject["tenancy"]>): TenancySpec {
  const roles = tenancy.roles;
  return {
    resource: tenancy.resource,
    roles,
    manage: tenancy.manage ?? (roles.length > 1 ? roles.slice(0, -1) : roles),
    bypass: tenancy.bypass ?? [],
    ...(tenancy.create ? { create: tenancy.create } : {}),
    ...(tenancy.adopt ? { adopt: tenancy.adopt } : {}),
  };
}

/** `storage:` with its defaults: the driver, bucket, endpoint and region from the environment, local files. */
function normalizeStorage(storage: Partial<StorageSpec> | undefined): StorageSpec {
  return {
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
    ...storage,
  };
}

/** `mail:` with its defaults: the transport from MAIL_URL, the front end's usual pages, modest limits. */
function normalizeMail(mail: NonNullable<RawProject["mail"]>): MailSpec {
  return {
    from: mail.from,
    transport: mail.transport ?? "${MAIL_URL}",
    links: { verifyEmail: "/verify-email", resetPassword: "/reset-password", acceptInvitation: "/accept-invitation", confirmEmail: "/confirm-email", ...mail.links },
    limits: { perEmail: 3, perClient: 20, windowSeconds: 900, ...mail.limits },
  };
}
