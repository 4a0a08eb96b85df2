// Finds every island the server rendered and hydrates it when its strategy says. The page's
// inline bootstrap (app/rendering/bootstrap.js) imports this runtime once the page has loaded
// and painted, or at the visitor's first pointer, focus or key event; island code (React with
// the hydrator ./island.js, and the island's module) is never requested before the first paint
// either, and nothing is preloaded: every page, the sell form's included, paints from its HTML,
// CSS and largest picture alone, and its islands work natively until they hydrate.
//   "load": as soon as the runtime runs, the first paint past (the sell form: a seller there is
//     about to type, and a first touch of the form brings the runtime at once; what they typed,
//     chose or picked before it hydrated is adopted, see ./island.js);
//   "idle": after the first paint and the load event, once the browser is idle;
//   "visible": after both, once the island comes near the viewport;
//   "interaction": at the visitor's first pointer, focus or key event in the island, or after
//     both once the browser is idle, whichever comes first (the header).
// An island whose form was posted the plain way before its code arrived is left as it is.
import { whenIdle } from "./idle.js";
import { watchImages } from "./images.js";
import { onFirstInteraction } from "./interaction.js";
import { whenVisible } from "./visible.js";
import "./arrival.js";

function afterLoad(callback) {
  if (document.readyState === "complete") callback();
  else window.addEventListener("load", callback, { once: true });
}

// A slow main thread can paint after the load event, so both are waited for.
function afterPaintAndLoad(callback) {
  afterFirstPaint(() => afterLoad(callback));
}

const strategies = {
  load: (_element, hydrate) => afterFirstPaint(hydrate),
  idle: (_element, hydrate) => afterPaintAndLoad(() => whenIdle(hydrate)),
  visible: (element, hydrate) => afterPaintAndLoad(() => whenVisible(element, hydrate)),
  interaction: (element, hydrate) => {
    onFirstInteraction(element, hydrate);
    afterPaintAndLoad(() => whenIdle(hydrate));
  },
};

async function hydrate(element) {
  performance.mark("islands:start"); // island code requested: DevTools' timeline and tests
  try {
    const [{ hydrateIsland }, module] = await Promise.all([
      import("./island.js"),
      import(element.dataset.componentUrl),
    ]);
    // A form in the island posted the plain way before its code arrived (the bootstrap marks it
    // data-posted) has sent the page on its way to the server's answer. Hydrated meanwhile, it
    // would let a second press post it again, by JavaScript: such an island is left as it is.
    if (!element.querySelector("form[data-posted]")) hydrateIsland(element, module);
  } catch (error) {
    console.error(`Island ${element.dataset.island} (#${element.id}) failed to hydrate:`, error);
  }
}

function once(callback) {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    callback();
  };
}

function hydrateAll() {
  for (const element of document.querySelectorAll("[data-island]")) {
    const strategy = strategies[element.dataset.hydrate] ?? strategies.load;
    strategy(element, once(() => hydrate(element)));
  }
}

// On a slow phone, evaluating React and hydrating would otherwise hold the first paint. The
// browser reports a paint once the frame is on screen; browsers without paint timing wait a
// frame and a task instead, and one that never reports a paint (a tab opened in the
// background) still gets its islands after a few seconds.
const PAINT_FALLBACK_MS = 3000;

function afterFirstPaint(callback) {
  const start = once(callback);
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

afterFirstPaint(watchImages);
hydrateAll();

// The web-vitals logger (./vitals.js) waits for the first paint, the load event and an idle
// moment: nothing a visitor waits for. (Without the paint, on a slow main thread it was asked
// for before the first paint, and Lighthouse's pessimistic estimate then counted it in FCP.)
afterPaintAndLoad(() => whenIdle(() => import("./vitals.js")));
