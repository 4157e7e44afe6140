import type { ResourceModel } from "../types.js";

/** Every Prisma relation is named, so two belongsTo to the same target never confuse Prisma. */
export const prismaRelationName = (source: Pick<ResourceModel, "names">, relation: string): string => `${source.names.pascal}_${relation}`;

/** The list side Prisma requires of a relation nobody named: `patients_by_doctor`. */
export const prismaInverseName = (source: Pick<ResourceModel, "names">, relation: string): string => `${source.names.pluralSnake}_by_${relation}`;
