// The ad click ids the visitor arrived with, as ../runtime/arrival.js recorded them, for the
// sell form: never past their platform's attribution window (Meta's fbclid, sent as fbc,
// fb.1.<time first seen, ms>.<fbclid>: 7 days; Google's gclid, gbraid and wbraid: 90 days), the
// newest click of each platform, and forgotten once the lead is sent. A recorded click past
// every window is removed from the browser when the sell page loads or sends. The server checks
// the same windows and each id's syntax again (app/sell/attribution.py).
import { CLICK_PREFIX } from "../runtime/arrival.js";

const DAY_MS = 86_400_000;
const MAX_LENGTH = 512;
const PLATFORMS = {
  meta: { keys: ["fbclid"], days: 7 },
  google: { keys: ["gclid", "gbraid", "wbraid"], days: 90 },
};

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked: the form falls back to the /sell page's own fields
  }
}

function recordedClicks(store) {
  const keys = Array.from({ length: store.length }, (_, index) => store.key(index));
  return keys
    .filter((key) => key?.startsWith(CLICK_PREFIX))
    .map((key) => ({
      key,
      params: new URLSearchParams(key.slice(CLICK_PREFIX.length)),
      seen: Number(store.getItem(key)),
    }));
}

// The click's ids for one platform, with when it was seen; null when it has none of them or
// is past that platform's window.
function platformClick(click, { keys, days }, now) {
  const ids = keys.filter((key) => click.params.get(key));
  if (!ids.length || !(now - click.seen <= days * DAY_MS)) return null;
  const values = ids.map((key) => [key, click.params.get(key).slice(0, MAX_LENGTH)]);
  return { ...Object.fromEntries(values), seen: click.seen };
}

// The newest click of each platform still in its window; clicks in none are removed.
function freshClicks(store, now) {
  const newest = {};
  for (const click of recordedClicks(store)) {
    let kept = false;
    for (const [platform, rule] of Object.entries(PLATFORMS)) {
      const found = platformClick(click, rule, now);
      if (!found) continue;
      kept = true;
      if (!newest[platform] || newest[platform].seen < found.seen) newest[platform] = found;
    }
    if (!kept) store.removeItem(click.key);
  }
  return newest;
}

// The sell form's click fields ("" for none), or null when storage is blocked.
export function clickIdFields(now = Date.now()) {
  const store = storage();
  if (!store) return null;
  const { meta, google = {} } = freshClicks(store, now);
  return {
    fbc: meta ? `fb.1.${meta.seen}.${meta.fbclid}` : "",
    gclid: google.gclid ?? "",
    gbraid: google.gbraid ?? "",
    wbraid: google.wbraid ?? "",
    google_click_seen: google.seen ? String(google.seen) : "",
  };
}

// Once the lead is sent, its clicks have done their work: nothing is kept any longer.
export function forgetClickIds() {
  const store = storage();
  if (store) recordedClicks(store).forEach(({ key }) => store.removeItem(key));
}

if (typeof window !== "undefined") clickIdFields();
