// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useEffect, useState } from "preact/hooks";
import { AdminApi, type Me } from "./api.js";
import { useRoute } from "./hooks.js";
import type { AdminView } from "./manifest.js";
import { Layout } from "./parts/layout.js";
import { Pages } from "./pages/pages.js";
import { SignIn } from "./pages/sign-in.js";
import { SecondFactorSetup } from "./pages/second-factor-setup.js";

/** What the admin knows of its caller: nothing yet, signed out, or signed in with their view. */
type Session =
  | { readonly state: "starting" }
  | {
      readonly state: "signed-out";
      readonly title: string;
      readonly reset: boolean;
      readonly notice?: string;
    }
  | { readonly state: "enrolling"; readonly title: string; readonly me: Me }
  | { readonly state: "signed-in"; readonly view: AdminView; readonly me: Me };

const api = new AdminApi();
// A refreshed token survives a reload of the tab.
addEventListener("pagehide", () => api.keep());

/**
 * Who the caller is now: signed in with their view; a role that must set up a second factor first
 * (/me answers, the rest waits for the setup); or signed out (a token that no longer works is
 * forgotten).
 */
async function sessionOf(notice?: string): Promise<Session> {
  const manifest = await api.manifest();
  const title = manifest.error === undefined ? manifest.data.title : "Admin";
  const view =
    manifest.error === undefined && "resources" in manifest.data ? manifest.data : undefined;
  if ((view || manifest.error?.status === 403) && api.signedIn()) {
    const me = await api.auth.me();
    if (me.error === undefined)
      return view
        ? { state: "signed-in", view, me: me.data }
        : { state: "enrolling", title, me: me.data };
  }
  if (manifest.error?.status === 401 || (manifest.error === undefined && !view)) {
    api.transport.setToken(undefined);
    api.keep();
  }
  const reset = manifest.error === undefined && manifest.data.reset;
  return { state: "signed-out", title, reset, ...(notice ? { notice } : {}) };
}

/** The whole admin: the sign-in until a token works, then the caller's pages. */
export function App() {
  const [session, setSession] = useState<Session>({ state: "starting" });
  const route = useRoute();
  const start = async (notice?: string) => setSession(await sessionOf(notice));
  useEffect(() => void start(), []);
  useEffect(() => {
    document.title = session.state === "signed-in" ? `${session.view.title} admin` : "Sign in";
  }, [session]);

  async function signOut() {
    await api.auth.logout();
    api.transport.setToken(undefined);
    api.keep();
    await start("You are signed out.");
  }

  switch (session.state) {
    case "starting":
      return <p role="status">Loading…</p>;
    case "signed-out":
      return (
        <SignIn
          api={api}
          title={session.title}
          reset={session.reset}
          notice={session.notice}
          onSignedIn={start}
        />
      );
    case "enrolling":
      return <SecondFactorSetup api={api} onDone={start} onSignOut={signOut} />;
    case "signed-in":
      return (
        <Layout
          api={api}
          view={session.view}
          me={session.me}
          route={route}
          onSignOut={signOut}
          onTenant={start}
        >
          <Pages key={api.tenant() ?? ""} api={api} view={session.view} route={route} />
        </Layout>
      );
  }
}
