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
// island meanwhile still hydrates it at once and reaches its handler. An island the visitor can
// type into before it hydrates (the sell form) exports `adoptPage(element, props)`: the props
// that render what is on the page now. Hydrating sets each controlled field to its props, so
// with the server's props the visitor's entries would vanish.
export function hydrateIsland(element, module) {
  const props = readProps(element);
  const island = createElement(module.default, module.adoptPage?.(element, props) ?? props);
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
