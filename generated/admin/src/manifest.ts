// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * What the admin knows of the project: `hashapi generate` writes it from the specs into
 * src/admin/admin.json (every role's view), and GET /api/admin/manifest answers each caller with
 * their role's view alone (src/admin/admin-manifest.ts): resources they may list, fields they see,
 * which of them they may write and the actions they may take. The pages are drawn from it.
 */

/** Who may take an action: anyone (`public`), every signed-in user (`all`), or these roles. */
export type Access = "public" | "all" | readonly string[];

/** An action of a resource, as the admin offers it. */
export type AdminAction = "index" | "show" | "store" | "update" | "destroy" | "restore";

/** What an input takes, from the compiled payload schema (the server decides again, and says why). */
export interface AdminInput {
  readonly required?: true;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  /** A number input's step: 1 for integers, 10^-scale for decimals. */
  readonly step?: string;
  readonly pattern?: string;
}

/** How a value is edited and shown. */
export type AdminFieldType =
  | "string"
  | "text"
  | "email"
  | "uuid"
  | "enum"
  | "integer"
  | "decimal"
  | "boolean"
  | "date"
  | "datetime"
  | "json"
  | "file"
  | "password"
  | "belongsTo";

export interface AdminField {
  readonly key: string;
  /** Capitalized for a label: "Weight kg". */
  readonly label: string;
  readonly type: AdminFieldType;
  /** belongsTo: the related collection. */
  readonly target?: string;
  readonly values?: readonly string[];
  readonly nullable?: true;
  /** In the record as output (a payload-only key, e.g. a hidden relation, is not). */
  readonly output: boolean;
  /** Roles that see it; absent: whoever sees the record. */
  readonly visibleTo?: readonly string[];
  /** Roles that may send it; absent: whoever may write the record. */
  readonly writableBy?: readonly string[];
  /** In the create payload (absent: not accepted there). */
  readonly create?: AdminInput;
  readonly update?: AdminInput;
  readonly sortable?: true;
  /** The list filter operators it takes; absent: not filterable. */
  readonly operators?: readonly string[];
  /** `type: file`: what the picker accepts, and its size bound in KB. */
  readonly file?: { readonly accept: string; readonly maxKb: number };
}

/** A list reached from a record: hasMany (the target's list, filtered) or belongsToMany (its link routes). */
export interface AdminLink {
  readonly key: string;
  readonly label: string;
  readonly kind: "hasMany" | "belongsToMany";
  readonly target: string;
  /** hasMany: the target's belongsTo back here, the filter that narrows its list. */
  readonly inverse?: string;
  /** belongsToMany: the pivot's fields, edited on each link. */
  readonly pivot?: readonly AdminField[];
}

/** A belongsTo elsewhere pointing here: what deleting a record does to it. */
export interface AdminReference {
  readonly collection: string;
  readonly label: string;
  readonly onDelete: "restrict" | "cascade" | "setNull";
}

export interface AdminResource {
  readonly collection: string;
  /** With tenancy: a tenant's records (`member`) or the tenants themselves (`self`); absent: neither. */
  readonly tenant?: "member" | "self";
  /** "Medical records", "medical record". */
  readonly label: string;
  readonly singular: string;
  readonly prefix: string;
  /** The key of its public id in the output: `hash` or `public_id`. */
  readonly idKey: string;
  readonly softDelete: boolean;
  readonly audit: boolean;
  readonly search: boolean;
  /** The fields that name a record in links and pickers, best first (the first the role sees wins). */
  readonly titles: readonly string[];
  readonly actions: Partial<Record<AdminAction, Access>>;
  readonly fields: readonly AdminField[];
  readonly links: readonly AdminLink[];
  readonly references: readonly AdminReference[];
  /** Has `type: file` fields: the two-phase upload routes. */
  readonly uploads: boolean;
}

/** The screens beside the resources, and who gets them. */
export interface AdminExtras {
  /** /api/invitations: the roles that invite to the platform. */
  readonly invitations?: readonly string[];
  /** /api/webhooks/deliveries, for this role. */
  readonly deliveries?: string;
  /** /api/jobs, for this role. */
  readonly jobs?: string;
  /** Tenancy: the tenants' collection, one tenant's label, its roles and those that manage members. */
  readonly tenancy?: {
    readonly collection: string;
    readonly label: string;
    /** The roles in a tenant, most privileged first. */
    readonly roles: readonly string[];
    readonly manage: readonly string[];
  };
  /** Set in a caller's view while they work in a tenant: its members screen. */
  readonly members?: true;
}

export interface AdminManifest {
  readonly title: string;
  /** Most privileged first. */
  readonly roles: readonly string[];
  readonly mfa: boolean;
  /** `mail:`: a forgotten password is reset by mail (the sign-in page offers it). */
  readonly reset: boolean;
  readonly resources: readonly AdminResource[];
  readonly extras: AdminExtras;
}

/** A manifest as one caller receives it: their role, and what is theirs to see and do. */
export interface AdminView extends AdminManifest {
  readonly role: string;
  /** Their role in the tenant they work in (X-Tenant), with tenancy. */
  readonly tenantRole?: string;
}
