// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { render } from "preact";
import { App } from "./app.js";
import "./admin.css";

render(<App />, document.getElementById("app")!);
