// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import type { ApiFailure, Result } from "../../client/src/core.js";
import { parseRoute, type Route } from "./routes.js";

/** The route of the address, followed as it changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", follow);
    return () => removeEventListener("hashchange", follow);
  }, []);
  return route;
}

/** What a load is: under way, answered, or failed (with the API's failure). */
export type Loaded<Data> =
  | { readonly state: "loading" }
  | { readonly state: "done"; readonly data: Data }
  | { readonly state: "failed"; readonly error: ApiFailure };

let inFlight = 0;

/**
 * Loads under way, on the document (`data-loads`): 0 once every answer is drawn, which a test can
 * wait for instead of guessing.
 */
function counted(change: number): void {
  inFlight += change;
  document.documentElement.dataset.loads = String(inFlight);
}

/**
 * The answer of `load`, asked again whenever a key changes (and by `reload`); an answer that
 * arrives after a newer ask is dropped.
 */
export function useLoad<Data>(
  load: () => Promise<Result<Data, ApiFailure>>,
  keys: readonly unknown[],
): [Loaded<Data>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<Data>>({ state: "loading" });
  const [round, setRound] = useState(0);
  // A layout effect: counted in the same task as the render that asks, never after it is drawn.
  useLayoutEffect(() => {
    let current = true;
    counted(1);
    setLoaded({ state: "loading" });
    void load().then((result) => {
      if (current)
        setLoaded(
          result.error === undefined
            ? { state: "done", data: result.data }
            : { state: "failed", error: result.error },
        );
      // After the render that draws it (Preact renders in a microtask; this is a task later).
      setTimeout(() => counted(-1), 0);
    });
    return () => {
      current = false;
    };
  }, [...keys, round]);
  return [loaded, () => setRound((value) => value + 1)];
}

/**
 * Moves focus to the page's heading when the page changes, so a screen reader announces it; a page
 * still loading has none yet, so its heading is focused when it is drawn.
 */
export function useHeadingFocus(key: string): void {
  useEffect(() => {
    const focused = () => {
      const heading = document.querySelector<HTMLElement>("main h1");
      heading?.focus();
      return heading !== null;
    };
    if (focused()) return;
    const drawn = new MutationObserver(() => focused() && drawn.disconnect());
    drawn.observe(document.querySelector("main") ?? document.body, {
      childList: true,
      subtree: true,
    });
    return () => drawn.disconnect();
  }, [key]);
}
