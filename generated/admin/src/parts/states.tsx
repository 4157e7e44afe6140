// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ApiFailure } from "../../../client/src/core.js";

/** A page or record the caller does not reach: the same words whether it exists or not. */
export function NotFound(props: { what: string }) {
  return (
    <>
      <h1 tabIndex={-1}>Not found</h1>
      <p>This {props.what} does not exist, or you may not see it.</p>
      <p>
        <a href="#/">Back to the start</a>
      </p>
    </>
  );
}

/** A load that failed: not found as such, anything else with the API's message. */
export function Failed(props: { error: ApiFailure; what: string }) {
  if (props.error.status === 404) return <NotFound what={props.what} />;
  return (
    <div class="error-summary" role="alert">
      <p>{props.error.message}</p>
    </div>
  );
}

export function Loading() {
  return (
    <p role="status" class="loading">
      Loading…
    </p>
  );
}
