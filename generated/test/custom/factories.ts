// Created once by hashapi from specs/. This file is yours: hashapi never overwrites it.

import type { TestOverrides } from "../support.js";

/**
 * What your own code (hooks, policies) changes about the payloads the generated tests send; hashapi
 * never overwrites this file. Per resource, by its camelCase name:
 * - `setByServer`: fields your code sets itself and refuses in payloads: the generated tests leave
 *   them out of what they send and do not expect them to be required (records they make through the
 *   service, past your controller, still get a value);
 * - `payload(payload, n)`: the payload the tests send, changed as your rules need (`n` differs per
 *   record, for unique values).
 * E.g. with a `beforeCreate` that sets a comment's author from the caller:
 *   comment: { setByServer: ["author"] },
 */
export const overrides: TestOverrides = {};
