// Created once by hashapi from specs/. This file is yours: hashapi never overwrites it.

import type { EventHandlers } from "../lib/events/handlers.js";

/**
 * Yours (hashapi writes it once and never again): code that reacts to what the API wrote, by event
 * type or pattern ("<resource>.created", ".updated", ".deleted", ".restored",
 * "<resource>.<relation>.attached" / ".detached", "<resource>.*", "*"). Each handler runs after the
 * write's commit (never for a write that rolled back), from the outbox: at least once, so make it
 * safe to repeat; when it throws or takes over 30 s it is retried with growing delays for a day, in
 * order per record, by whichever process of the service gets there first.
 *
 * For example, e-mailing a customer when an agent answers (a `reply` resource, your own mailer):
 *
 *   "reply.created": async (event) => {
 *     const reply = event.record;
 *     if (!reply) return; // deleted since
 *     await mailer.send({
 *       to: String(reply.customer_email),
 *       subject: "We answered your ticket",
 *       text: String(reply.body),
 *       idempotencyKey: `${event.type}:${event.hash}`,
 *     });
 *   },
 */
export const handlers: EventHandlers = {};
