// The one place tracking events go. Every event is pushed to window.siteEvents (a
// dataLayer-like queue tests and tag managers can read) and announced as a "site:track" window
// event; the Meta pixel and GA4 receive it only when their ids are configured (meta tags
// rendered by the server) and the visitor has not opted out (adOptOut below), and their
// scripts load only then, as external files.
const META_SCRIPT = "https://connect.facebook.net/en_US/fbevents.js";
const GA4_SCRIPT = "https://www.googletagmanager.com/gtag/js?id=";

function configured(name) {
  return document.querySelector(`meta[name="${name}"]`)?.content || "";
}

function loadScript(src) {
  const script = document.createElement("script");
  script.async = true;
  script.src = src;
  document.head.append(script);
}

// The visitor's "do not sell or share": their browser's Global Privacy Control signal, or the
// cookie /privacy-choices sets (readable here, so frozen pages, the same for everyone, honour
// it too). "gpc", "choice", or "" when they have not opted out. The sell form sends it with
// the lead, which is then never reported to Meta or Google.
const OPT_OUT_COOKIE = /(?:^|;\s*)(?:__Host-)?privacy_opt_out=1(?:;|$)/;

export function adOptOut() {
  if (typeof navigator !== "undefined" && navigator.globalPrivacyControl === true) return "gpc";
  if (typeof document !== "undefined" && OPT_OUT_COOKIE.test(document.cookie)) return "choice";
  return "";
}

let started = false;

// Neither the pixel nor the tag loads for a visitor who opted out.
function startVendors() {
  if (started) return;
  started = true;
  if (adOptOut()) return;
  const pixelId = configured("meta-pixel-id");
  if (pixelId && !window.fbq) {
    const fbq = (...args) => (fbq.callMethod ? fbq.callMethod(...args) : fbq.queue.push(args));
    Object.assign(fbq, { queue: [], loaded: true, version: "2.0", push: fbq });
    window.fbq = window._fbq = fbq;
    loadScript(META_SCRIPT);
    fbq("init", pixelId);
    fbq("track", "PageView");
  }
  const measurementId = configured("ga4-measurement-id");
  if (measurementId && !window.gtag) {
    window.dataLayer = window.dataLayer || [];
    window.gtag = function gtag() {
      window.dataLayer.push(arguments); // gtag.js reads the arguments object itself
    };
    loadScript(GA4_SCRIPT + encodeURIComponent(measurementId));
    window.gtag("js", new Date());
    window.gtag("config", measurementId);
  }
}

function record(entry) {
  (window.siteEvents = window.siteEvents || []).push(entry);
  window.dispatchEvent(new CustomEvent("site:track", { detail: entry }));
}

// An advertising-pixel event (ViewContent, InitiateCheckout, Lead), with an optional event id
// that the server repeats in its Conversions API call so the lead is counted once.
export function trackPixel(name, params = {}, eventID = undefined) {
  startVendors();
  record({ channel: "pixel", name, params, eventID });
  window.fbq?.("track", name, params, eventID ? { eventID } : undefined);
}

// An analytics conversion (GA4 event name).
export function trackConversion(name, params = {}) {
  startVendors();
  record({ channel: "analytics", name, params });
  window.gtag?.("event", name, params);
}

export const LEAD_VALUE = { value: 1000, currency: "USD" };
