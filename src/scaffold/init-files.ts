export function projectFileTemplate(name: string): string {
  return `# yaml-language-server: $schema=../node_modules/hashapi/schema/project.schema.json
# Project settings. Every key is optional; the values below are the defaults.
name: ${name}
database: sqlite            # sqlite (embedded file) | postgresql
out: api                    # the generated project, next to this specs folder (every command uses it)
auth:
  # roles: [admin, member]  # each user has one, most privileged first (default: the one role user)
  # users: { manage: [admin] }   # /api/users (list, create, edit, delete users) for these roles
  ttl: 3600                 # access token lifetime, seconds
  refreshTtl: 1209600       # how long after the first login a token may be refreshed, seconds
pagination:
  defaultPerPage: 15
  maxPerPage: 100
`;
}

export function exampleResourceSpec(): string {
  return `# yaml-language-server: $schema=../node_modules/hashapi/schema/spec.schema.json
# An example resource: replace it with your own (hashapi add-resource <name>).
name: Note
softDelete: true
fields:
  title: { type: string, max: 120 }
  body: { type: text, nullable: true }
  pinned: { type: boolean, default: false }
auth:
  public: [index, show]
`;
}
