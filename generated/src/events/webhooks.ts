// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createHmac } from "node:crypto";
import { post, type PostOutcome } from "./post.js";
import { eventMatcher, type Receiver } from "./receivers.js";

/*
 * Webhooks as the Standard Webhooks specification has them: a POST whose body is the event, with
 * `webhook-id` (the delivery's id, the same on every attempt, for the receiver to drop repeats),
 * `webhook-timestamp` (seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body` under the secret's bytes). The secret is the specification's form:
 * `whsec_` and base64.
 */

/** A webhook of hashapi.yaml as declared there: its values' environment variables. */
export interface DeclaredWebhook {
  readonly name: string;
  /** The URL itself, or the environment variable that holds it (`urlEnv`). */
  readonly url?: string;
  readonly urlEnv?: string;
  readonly secretEnv: string;
  readonly events: readonly string[];
  readonly as: string;
  readonly retryHours: number;
  /** It also hears what `npm run db:seed` and scripts write (default false). */
  readonly seeds?: boolean;
  /** Records whose events it is sent at once, per process (default 16). */
  readonly concurrency?: number;
  /**
   * With tenancy: only events of these tenants' records, each a public id or `${NAME}` (a
   * comma-separated list read from the environment).
   */
  readonly tenants?: readonly string[];
}

/** A webhook ready to deliver to: its URL and secret read from the environment. */
export interface Webhook extends Receiver {
  readonly url: URL;
  readonly secret: Buffer;
  readonly as: string;
  readonly retryHours: number;
  /** With tenancy: the tenants whose records' events it hears (public ids); every tenant when absent. */
  readonly tenants?: readonly string[];
}

// The specification's range for a secret's bytes.
const secretBytes = { min: 24, max: 64 };

/**
 * The webhooks of `declared` with their values from `environment`; each value missing or malformed
 * is a problem (a start-up error), named by its variable, never printing a secret.
 */
export function readWebhooks(
  declared: readonly DeclaredWebhook[],
  given: NodeJS.ProcessEnv,
  problems: string[],
): Webhook[] {
  const webhooks: Webhook[] = [];
  for (const webhook of declared) {
    const environment = given.NODE_ENV === "test" ? { ...testValues(webhook), ...given } : given;
    const from = (variable: string) => `${variable} (webhook ${webhook.name} in hashapi.yaml)`;
    const rawUrl = webhook.url ?? environment[webhook.urlEnv!];
    const url = rawUrl ? parseUrl(rawUrl) : undefined;
    if (!rawUrl) problems.push(`${from(webhook.urlEnv!)} must be set to the receiver's URL`);
    else if (!url)
      problems.push(`${from(webhook.urlEnv ?? "url")} must be an http:// or https:// URL`);
    const secret = decodeSecret(environment[webhook.secretEnv]);
    if (!environment[webhook.secretEnv])
      problems.push(
        `${from(webhook.secretEnv)} must be set to a signing secret: whsec_ and the base64 of ${secretBytes.min} to ${secretBytes.max} random bytes (e.g. echo "whsec_$(openssl rand -base64 32)")`,
      );
    else if (!secret)
      problems.push(
        `${from(webhook.secretEnv)} must be whsec_ and the base64 of ${secretBytes.min} to ${secretBytes.max} bytes (e.g. echo "whsec_$(openssl rand -base64 32)")`,
      );
    if (url && secret)
      webhooks.push({
        name: webhook.name,
        url,
        secret,
        as: webhook.as,
        retryHours: webhook.retryHours,
        seeds: webhook.seeds ?? false,
        concurrency: webhook.concurrency ?? 16,
        matches: eventMatcher(webhook.events),
        ...(webhook.tenants ? { tenants: tenantsOf(webhook.tenants, environment) } : {}),
      });
  }
  return webhooks;
}

/** A webhook's `tenants`: public ids as written, or read from the environment (`${NAME}`: a comma-separated list). */
function tenantsOf(declared: readonly string[], environment: NodeJS.ProcessEnv): string[] {
  return declared.flatMap((entry) => {
    const variable = /^\$\{([A-Z][A-Z0-9_]*)\}$/.exec(entry)?.[1];
    if (variable === undefined) return [entry];
    return (environment[variable] ?? "")
      .split(",")
      .map((hash) => hash.trim())
      .filter((hash) => hash !== "");
  });
}

/**
 * The project's own tests (NODE_ENV=test) need no receiver: unset values default to a port nothing
 * listens on and a fixed secret. Elsewhere an unset value is a start-up error.
 */
function testValues(webhook: DeclaredWebhook): Record<string, string> {
  return {
    ...(webhook.urlEnv ? { [webhook.urlEnv]: "http://127.0.0.1:9/" } : {}),
    [webhook.secretEnv]: `whsec_${Buffer.alloc(32, 7).toString("base64")}`,
  };
}

function parseUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

function decodeSecret(text: string | undefined): Buffer | undefined {
  if (!text?.startsWith("whsec_")) return undefined;
  const encoded = text.slice("whsec_".length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const bytes = Buffer.from(encoded, "base64");
  return bytes.length >= secretBytes.min && bytes.length <= secretBytes.max ? bytes : undefined;
}

/** `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signature(secret: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", secret).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/**
 * POSTs one message to a webhook, signed, within `timeoutMs`: a 2xx is delivered; any other status,
 * a redirect (not followed), a timeout or a network error is not.
 */
export function postMessage(
  webhook: Webhook,
  message: { id: string; body: string },
  timeoutMs: number,
): Promise<PostOutcome> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "hashapi-webhooks",
    "webhook-id": message.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signature(webhook.secret, message.id, timestamp, message.body),
  };
  return post(webhook, headers, message.body, timeoutMs);
}

// Retries after `base` (WEBHOOK_RETRY_BASE_MS, 5 s), then longer: with 5 s, 5 s, 30 s, 2 min, 10 min,
// 30 min, then hourly.
const retrySteps = [1, 6, 24, 120, 360, 720];

/**
 * When a delivery that failed its `attempts`-th attempt is tried again; null once `retryHours`
 * after the event are spent (the delivery has failed).
 */
export function nextAttempt(
  attempts: number,
  eventAt: Date,
  retryHours: number,
  baseMs: number,
  now = new Date(),
): Date | null {
  const delay = baseMs * retrySteps[Math.min(attempts - 1, retrySteps.length - 1)]!;
  const next = new Date(now.getTime() + delay);
  return next.getTime() > eventAt.getTime() + retryHours * 3_600_000 ? null : next;
}
