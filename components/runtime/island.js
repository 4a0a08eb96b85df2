// Hydrates one island with React: imported by the runtime (./hydrate.js) only when an island's
// strategy says so, and bundled into React's chunk, so the runtime every page loads before its
// load event carries none of this.
import { createElement } from "react";
import { hydrateRoot } from "react-dom/client";

function readProps(element) {
  const script = document.querySelector(`script[data-island-props="${element.id}"]`);
  return script ? JSON.parse(script.textContent) : {};
}

export function hydrateIsland(element, Component) {
  hydrateRoot(element, createElement(Component, readProps(element)), {
    identifierPrefix: element.id,
    onRecoverableError(error) {
      console.error(`Island ${element.dataset.island} (#${element.id}) hydration error:`, error);
    },
  });
  element.dataset.hydrated = "true";
}
