// Runs a callback once, at the visitor's first pointer, focus or key event inside the element.
// Listening in the capture phase sees the event before anything in the element handles it;
// passive listeners never delay the browser's own response (a <details> still opens natively).
const EVENTS = ["pointerover", "pointerdown", "focusin", "keydown"];

export function onFirstInteraction(element, callback) {
  const listening = new AbortController();
  const start = () => {
    listening.abort();
    callback();
  };
  for (const type of EVENTS) {
    element.addEventListener(type, start, { capture: true, passive: true, signal: listening.signal });
  }
}
