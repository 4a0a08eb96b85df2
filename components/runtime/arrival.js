// How the visit arrived, recorded by every page's runtime in as few bytes as can be (every page
// pays for them, within the 70 KB budget): the visit's first page, as its query, its path and
// the referring site's host name (sessionStorage, for the visit), and each landing address that
// carries an ad click id, with the time it was first seen (localStorage, as the platforms'
// windows outlast a visit). The sell form reads, checks and expires them (components/shared/utm.js,
// components/shared/clickIds.js) and the server checks them again (app/sell/attribution.py).
export const VISIT_KEY = "watchbuyers:visit";
export const CLICK_PREFIX = "watchbuyers:click:";

function recordArrival({ search, pathname } = window.location, referrer = document.referrer) {
  try {
    const visit = window.sessionStorage;
    const host = referrer && new URL(referrer).hostname;
    visit.getItem(VISIT_KEY) ?? visit.setItem(VISIT_KEY, JSON.stringify([search, pathname, host]));
    const click = CLICK_PREFIX + search;
    if (/[?&](fbclid|gclid|gbraid|wbraid)=/.test(search)) {
      localStorage.getItem(click) ?? localStorage.setItem(click, Date.now());
    }
  } catch {
    // storage blocked: the sell form then sends its own page's hidden fields
  }
}

if (typeof window !== "undefined") recordArrival();
