// Hydrates one island with React: imported by the runtime (./hydrate.js) only when an island's
// strategy says so, and bundled into React's chunk, so the runtime every page loads before its
// load event carries none of this.
import { createElement, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";

function readProps(element) {
  const script = document.querySelector(`script[data-island-props="${element.id}"]`);
  return script ? JSON.parse(script.textContent) : {};
}

// As a transition, hydration renders in slices that yield to the browser every few
// milliseconds (a plain hydrateRoot renders the whole island in one task); a click on the
// island meanwhile still hydrates it at once and reaches its handler.
export function hydrateIsland(element, Component) {
  const island = createElement(Component, readProps(element));
  startTransition(() => {
    hydrateRoot(element, island, {
      identifierPrefix: element.id,
      onRecoverableError(error) {
        console.error(`Island ${element.dataset.island} (#${element.id}) hydration error:`, error);
      },
    });
  });
  element.dataset.hydrated = "true";
}
