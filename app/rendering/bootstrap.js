// The one inline script of every page with islands, allowed by its sha256 in the CSP
// (app/rendering/assets.py reads this file, drops these comment lines and hashes the rest, so
// the page and the header always agree). It asks for the islands' runtime, whose URL its element
// carries, once the page has painted, loaded (a page can load before it first paints) and
// painted the frame after, so its largest paint is on screen, and the browser is idle; or at
// the visitor's first press, focus or key if that comes first
// (not a pointer merely over the page: Chrome sends one at the first layout under a resting
// mouse). A module script in the HTML would be fetched, and run, while the page still waits for
// its stylesheet and its largest picture. It also marks a form the visitor submits
// (data-posted): one posted the plain way before its island's code arrived is not hydrated
// (components/runtime/hydrate.js). A browser without paint timing waits for the load alone.
// Once the page has painted it marks <html data-painted>: a picture that need not be in the
// first paint waits for it (components/styles/site.css, the home page's hero on a phone).
((script) => {
  let started = false;
  const start = () => started || ((started = true), import(script.dataset.src));
  for (const type of ["pointerdown", "focusin", "keydown"]) {
    addEventListener(type, start, { capture: true, once: true, passive: true });
  }
  const paint = { type: "paint", buffered: true };
  const painted = window.PerformanceObserver?.supportedEntryTypes?.includes("paint")
    ? new Promise((done) => new PerformanceObserver(done).observe(paint))
    : Promise.resolve();
  painted.then(() => (document.documentElement.dataset.painted = ""));
  const loaded = new Promise((done) => addEventListener("load", done));
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  Promise.all([painted, loaded]).then(frame).then(() => idle(start));
  addEventListener("submit", (event) => (event.target.dataset.posted = ""), true);
})(document.currentScript);
