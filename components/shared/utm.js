// Campaign parameters of the visit's first page, whatever page the visitor landed on, with that
// page's path and the host of the external site that referred the visit (never its whole
// address), as ../runtime/arrival.js recorded them; the sell form sends them with the lead.
// Ad click ids, kept longer than a visit, are read by ./clickIds.js.
import { VISIT_KEY } from "../runtime/arrival.js";

export const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"];

function recordedVisit() {
  try {
    return JSON.parse(window.sessionStorage.getItem(VISIT_KEY));
  } catch {
    return null; // storage blocked: the form falls back to the /sell page's own fields
  }
}

// The landing page's campaign fields ("" for what it lacked), or null when this visit's landing
// was not recorded.
export function landingFields() {
  const visit = recordedVisit();
  if (!Array.isArray(visit)) return null;
  const [search, path, host] = visit;
  const params = new URLSearchParams(search);
  const utm = UTM_KEYS.map((key) => [key, (params.get(key) ?? "").slice(0, 200)]);
  return {
    ...Object.fromEntries(utm),
    landing_page: String(path).slice(0, 300),
    referrer_host: host && host !== window.location.hostname ? host : "",
  };
}
