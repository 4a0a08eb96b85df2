// An island hydrates after the page has loaded or at the visitor's first interaction with it,
// and its <details> work natively until then: one the visitor opened meanwhile must stay open
// when the island takes over. Hydration keeps the DOM as the server rendered it while the
// island's state says "closed", so on mount, before the browser paints again, `adopt(index)` is
// called with the open one's index in `ref.current` (one element, or a list of them) and the
// state follows what the visitor sees: nothing closes, nothing flashes.
import { useLayoutEffect } from "react";

export function useAdoptOpen(ref, adopt) {
  useLayoutEffect(() => {
    const open = [ref.current].flat().findIndex((element) => element?.open);
    if (open !== -1) adopt(open);
  }, []);
}
