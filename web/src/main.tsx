/** Entry point of the web client (issue 10): styles and the root component. */
import { render } from "preact";
import { App } from "./app";
import "katex/dist/katex.min.css";
import "./styles/base.css";
import "./styles/messages.css";

render(<App />, document.getElementById("app") as HTMLElement);
