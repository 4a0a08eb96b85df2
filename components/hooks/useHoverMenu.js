// One-open-at-a-time menus that open on hover after a delay and close after a shorter one.
// Moving from one menu to the next within the skip delay opens it at once, as menus
// in Radix's NavigationMenu do.
import { useCallback, useEffect, useRef, useState } from "react";

export const OPEN_DELAY_MS = 200;
export const SKIP_DELAY_MS = 300;
export const CLOSE_DELAY_MS = 150;

export function useHoverMenu() {
  const [openId, setOpenId] = useState(null);
  const timer = useRef(null);
  const lastClosedAt = useRef(0);

  const clearTimer = () => clearTimeout(timer.current);
  useEffect(() => clearTimer, []);

  const close = useCallback(() => {
    clearTimer();
    setOpenId((current) => {
      if (current !== null) lastClosedAt.current = Date.now();
      return null;
    });
  }, []);

  const open = useCallback((id) => {
    clearTimer();
    setOpenId(id);
  }, []);

  const toggle = useCallback(
    (id) => (openId === id ? close() : open(id)),
    [openId, open, close],
  );

  const hoverIn = useCallback(
    (id) => {
      clearTimer();
      const skipDelay = openId !== null || Date.now() - lastClosedAt.current < SKIP_DELAY_MS;
      if (skipDelay) open(id);
      else timer.current = setTimeout(() => setOpenId(id), OPEN_DELAY_MS);
    },
    [openId, open],
  );

  const hoverOut = useCallback(() => {
    clearTimer();
    timer.current = setTimeout(close, CLOSE_DELAY_MS);
  }, [close]);

  return { openId, open, close, toggle, hoverIn, hoverOut };
}
