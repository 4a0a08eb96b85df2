// Finds every island the server rendered and hydrates it when its strategy says:
// "load" at once (in document order, so the header is first), "idle" when the browser is idle,
// "visible" when it scrolls near the viewport. React is loaded only when an island needs it,
// and nothing starts before the browser has painted the server's HTML.
import { whenIdle } from "./idle.js";
import { watchImages } from "./images.js";
import { whenVisible } from "./visible.js";
import "../shared/utm.js";

const strategies = {
  load: (_element, hydrate) => hydrate(),
  idle: (_element, hydrate) => whenIdle(hydrate),
  visible: whenVisible,
};

function readProps(element) {
  const script = document.querySelector(`script[data-island-props="${element.id}"]`);
  return script ? JSON.parse(script.textContent) : {};
}

async function hydrateIsland(element) {
  const name = element.dataset.island;
  try {
    const [module, { hydrateRoot }, { createElement }] = await Promise.all([
      import(element.dataset.componentUrl),
      import("react-dom/client"),
      import("react"),
    ]);
    hydrateRoot(element, createElement(module.default, readProps(element)), {
      identifierPrefix: element.id,
      onRecoverableError(error) {
        console.error(`Island ${name} (#${element.id}) hydration error:`, error);
      },
    });
    element.dataset.hydrated = "true";
  } catch (error) {
    console.error(`Island ${name} (#${element.id}) failed to hydrate:`, error);
  }
}

export function hydrateAll(root = document) {
  for (const element of root.querySelectorAll("[data-island]")) {
    const strategy = strategies[element.dataset.hydrate] ?? strategies.load;
    strategy(element, () => hydrateIsland(element));
  }
}

// On a slow phone, evaluating React and hydrating would otherwise hold the first paint. The
// browser reports a paint once the frame is on screen; browsers without paint timing wait a
// frame and a task instead, and one that never reports a paint (a tab opened in the
// background) still gets its islands after a few seconds.
const PAINT_FALLBACK_MS = 3000;

function afterFirstPaint(callback) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    callback();
  };
  if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    requestAnimationFrame(() => setTimeout(start, 0));
    return;
  }
  new PerformanceObserver((_entries, observer) => {
    observer.disconnect();
    start();
  }).observe({ type: "paint", buffered: true });
  setTimeout(start, PAINT_FALLBACK_MS);
}

afterFirstPaint(() => {
  performance.mark("islands:start"); // shows in DevTools' timeline and in tests
  watchImages();
  hydrateAll();
});

// The web-vitals logger (./vitals.js) waits for the load event and an idle moment: nothing a
// visitor waits for. A module script runs before "load", so the listener cannot miss it.
window.addEventListener("load", () => whenIdle(() => import("./vitals.js")), { once: true });
