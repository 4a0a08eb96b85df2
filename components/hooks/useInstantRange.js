// The guide's range for the watch fields as the seller types them: asked of the server (the
// guide stays there) a moment after the last change, the answer to an older question dropped.
// No brand or condition yet, or no match: no range, and the page's 24-hour promise stands.
// A refusal (429 past the client's limit, app/sell/range_limits.py) or any other error shows
// no range either, rather than one drawn for what was typed before.
import { useEffect, useRef, useState } from "react";

const WAIT_MS = 300;

export function useInstantRange(url, values, initial, askAtOnce) {
  const [range, setRange] = useState(initial ?? null);
  const mounted = useRef(false);
  const { watchBrand, watchModel, watchCondition, hasBox, hasPapers } = values;

  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      if (!askAtOnce) return undefined; // the server drew the range for these values
    }
    if (!watchBrand || !watchCondition) {
      setRange(null);
      return undefined;
    }
    const query = new URLSearchParams({ watchBrand, watchModel, watchCondition });
    if (hasBox) query.set("hasBox", "y");
    if (hasPapers) query.set("hasPapers", "y");
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const answer = await fetch(`${url}?${query}`, {
          signal: controller.signal,
          headers: { Accept: "application/json" },
        });
        setRange(answer.ok ? (await answer.json()).range : null);
      } catch {
        // aborted by a newer question, or offline: what is shown stays
      }
    }, WAIT_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [url, watchBrand, watchModel, watchCondition, hasBox, hasPapers]);

  return range;
}
