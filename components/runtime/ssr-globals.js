// The two browser globals React's server build touches at start-up, which a bare V8 lacks.
// renderToString never streams, so these only need to exist and behave plausibly.
if (typeof globalThis.TextEncoder === "undefined") {
  globalThis.TextEncoder = class TextEncoder {
    encode(text = "") {
      const bytes = unescape(encodeURIComponent(text));
      return Uint8Array.from(bytes, (char) => char.charCodeAt(0));
    }
  };
}
if (typeof globalThis.MessageChannel === "undefined") {
  globalThis.MessageChannel = class MessageChannel {
    constructor() {
      this.port1 = { onmessage: null };
      this.port2 = { postMessage: (data) => setTimeout(() => this.port1.onmessage?.({ data }), 0) };
    }
  };
}
