// The server bundle: Flask calls renderIsland() inside mini-racer to get an island's markup
// from React itself, with the same identifierPrefix the browser will hydrate with.
import "./runtime/ssr-globals.js";
import { createElement } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server.browser";
import Picture from "./shared/Picture.jsx";
import PostCard from "./shared/PostCard.jsx";
import { InstantRange } from "./shared/InstantRange.jsx";
import { NamedIcon } from "./shared/icons.jsx";
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

// Components Jinja renders as plain markup (no hydration): one source for markup that
// islands also use.
const staticComponents = { Picture, PostCard, Icon: NamedIcon, InstantRange };

globalThis.renderStatic = (name, propsJson) => {
  const component = staticComponents[name];
  if (!component) throw new Error(`No static component named ${name}`);
  return renderToStaticMarkup(createElement(component, JSON.parse(propsJson)));
};
