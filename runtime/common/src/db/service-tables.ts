// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { quote } from "./sql.js";

/*
 * The outbox's tables, named in one place: every module of lib/events/ reads or writes some of
 * them, and none of those modules needs another's code for it.
 */

/** Every committed write's events (Prisma model HashapiEvent): outbox.ts. */
export const eventsTable = quote("hashapi_events");
/** One row per event and receiver: deliveries.ts. */
export const deliveriesTable = quote("hashapi_deliveries");
/** One row per receiver and record with deliveries pending: lanes.ts. */
export const lanesTable = quote("hashapi_lanes");
