// The server bundle: Flask calls renderIsland() inside mini-racer to get an island's markup
// from React itself, with the same identifierPrefix the browser will hydrate with.
import "./runtime/ssr-globals.js";
import { createElement } from "react";
import { renderToString } from "react-dom/server.browser";
import islands from "virtual:islands";

globalThis.renderIsland = (name, propsJson, islandId) => {
  const component = islands[name];
  if (!component) {
    throw new Error(`No island named ${name}; known: ${Object.keys(islands).join(", ")}`);
  }
  return renderToString(createElement(component, JSON.parse(propsJson)), {
    identifierPrefix: islandId,
  });
};
