// Runs a callback when the main thread is idle (or soon, where requestIdleCallback is missing).
export function whenIdle(callback) {
  if ("requestIdleCallback" in window) {
    window.requestIdleCallback(callback, { timeout: 2000 });
  } else {
    setTimeout(callback, 200);
  }
}
