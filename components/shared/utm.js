// Campaign parameters from the first landing URL of the visit, kept for the visit
// (sessionStorage), whatever page the visitor lands on; the sell form sends them with the lead.
export const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"];
const STORAGE_KEY = "watchbuyers:landing-utm";

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked: the form falls back to the /sell URL's own parameters
  }
}

export function captureLandingUtm(search = window.location.search) {
  const store = storage();
  if (!store || store.getItem(STORAGE_KEY) !== null) return;
  const params = new URLSearchParams(search);
  const utm = Object.fromEntries(
    UTM_KEYS.filter((key) => params.get(key)).map((key) => [key, params.get(key).slice(0, 200)]),
  );
  store.setItem(STORAGE_KEY, JSON.stringify(utm));
}

// The landing page's parameters, or null when this visit's landing was not recorded.
export function landingUtm() {
  const saved = storage()?.getItem(STORAGE_KEY);
  return saved ? JSON.parse(saved) : null;
}

if (typeof window !== "undefined") captureLandingUtm();
