import type { ActionValidation } from "../model/validation.js";
import type { ResourceModel } from "../model/types.js";

/**
 * `<name>.resource.json`: everything the runtime reads of one resource that is data rather than types
 * (runtime/common/src/resource/descriptor.ts, ResourceDeclaration): its routes' settings, list
 * options, output allow-list, and each action's JSON Schema with its Laravel messages, the same
 * schemas openapi.json publishes. Kept as JSON because it is data: written without prettier, read by
 * `defineResource` and `payloadValidators`, and not repeated as near-identical TypeScript per resource.
 */
export function buildResourceDeclaration(resource: ResourceModel): object {
  const { declaration } = resource;
  return {
    collection: resource.collection,
    prefix: resource.prefix,
    ...(declaration.unique ? { unique: declaration.unique } : {}),
    ...(declaration.exists ? { exists: declaration.exists } : {}),
    list: {
      sortable: resource.sortable,
      filters: declaration.filters,
      ...(declaration.filterValues ? { values: declaration.filterValues } : {}),
      ...(declaration.filterOperators ? { operators: declaration.filterOperators } : {}),
      ...(resource.search.length > 0 ? { search: resource.search } : {}),
      relations: resource.withable,
    },
    ...(resource.eagerLoad.length > 0 ? { eagerLoad: resource.eagerLoad } : {}),
    ...(resource.audit ? { audit: resource.audit.retainDays === null ? {} : { retainDays: resource.audit.retainDays } } : {}),
    output: declaration.output.keys,
    ...(declaration.output.scales ? { scales: declaration.output.scales } : {}),
    ...(declaration.files ? { files: declaration.files } : {}),
    ...(declaration.publicActions.length > 0 ? { publicActions: declaration.publicActions } : {}),
    ...(declaration.roles ? { roles: declaration.roles } : {}),
    ...(declaration.owner ? { owner: declaration.owner } : {}),
    ...(declaration.tenant ? { tenant: declaration.tenant } : {}),
    ...(declaration.uniqueAcrossTenants ? { uniqueAcrossTenants: declaration.uniqueAcrossTenants } : {}),
    ...(declaration.visibleTo ? { visibleTo: declaration.visibleTo } : {}),
    ...(declaration.writableBy ? { writableBy: declaration.writableBy } : {}),
    ...(declaration.setByServer ? { setByServer: declaration.setByServer } : {}),
    ...(resource.seed ? { seed: resource.seed } : {}),
    ...(resource.pivotPayloads.length > 0 ? { pivots: Object.fromEntries(resource.pivotPayloads.map(({ name, validation }) => [name, actionValidation(validation)])) } : {}),
    validation: {
      create: actionValidation(resource.validation.create),
      update: actionValidation(resource.validation.update),
    },
  };
}

function actionValidation(validation: ActionValidation): object {
  return {
    schema: validation.schema,
    messages: validation.messageList,
    ...(validation.confirmed.length > 0 ? { confirmed: validation.confirmed } : {}),
  };
}
