import type { ProjectModel, ResourceModel } from "../model/types.js";
import type { OutputFile } from "../output/types.js";
import { withHeader } from "../render/header.js";
import { layoutJson } from "./json-layout.js";
import { buildAdminManifest } from "./admin-manifest.js";
import { buildClientModule } from "./client.js";
import { buildOpenApi } from "./openapi.js";
import { buildPrismaSchema } from "./prisma-schema.js";
import { buildResourceDeclaration } from "./resource-declaration.js";

/**
 * The emit stage: outputs computed from the model by code rather than laid out by a template, one
 * function per file (Prisma's schema, the OpenAPI document, the typed client, each resource's
 * declaration).
 */
export function emitFiles(model: ProjectModel): OutputFile[] {
  const managedUsers = model.user.managed ? [declarationFile(model.user.managed)] : [];
  return [prismaSchemaFile(model), openApiFile(model), clientFile(model), adminFile(model), ...model.resources.map(declarationFile), ...managedUsers];
}

/** The admin's manifest (src/admin/admin.json): what its pages show, per role; runtime admin/ draws them. */
function adminFile(model: ProjectModel): OutputFile {
  return { path: "src/admin/admin.json", content: layoutJson(buildAdminManifest(model), { inlineObjects: true }), ownership: "generated", source: model.source, verbatim: true };
}

/** The typed client's module (client/src/index.ts); its runtime is copied beside it (render/runtime.ts). */
function clientFile(model: ProjectModel): OutputFile {
  const path = "client/src/index.ts";
  return { path, content: withHeader(path, buildClientModule(model), "generated", model.source), ownership: "generated", source: model.source };
}

// `generate` asks for the schema before rendering (to start the migration diff) and the render asks
// again: built once per model.
const schemaFiles = new WeakMap<ProjectModel, OutputFile>();

/** Known before anything is rendered: `generate` starts the migration diff with it at once. */
export function prismaSchemaFile(model: ProjectModel): OutputFile {
  let file = schemaFiles.get(model);
  if (!file) {
    const path = "prisma/schema.prisma";
    file = { path, content: withHeader(path, buildPrismaSchema(model), "generated", model.source), ownership: "generated", source: model.source };
    schemaFiles.set(model, file);
  }
  return file;
}

function openApiFile(model: ProjectModel): OutputFile {
  // Laid out here as prettier would (json-layout.ts): formatting 2 MB of JSON took prettier over a second.
  return { path: "openapi.json", content: layoutJson(buildOpenApi(model)), ownership: "generated", source: model.source, verbatim: true };
}

function declarationFile(resource: ResourceModel): OutputFile {
  const kebab = resource.names.kebab;
  const path = `src/resources/${kebab}/${kebab}.resource.json`;
  return { path, content: layoutJson(buildResourceDeclaration(resource), { inlineObjects: true }), ownership: "generated", source: resource.source, verbatim: true };
}
