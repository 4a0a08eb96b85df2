// Toast notifications: newest last, at most three at once, each gone after four seconds.
import { useCallback, useEffect, useRef, useState } from "react";

export const TOAST_DURATION_MS = 4000;
export const MAX_TOASTS = 3;

export function useToasts() {
  const [toasts, setToasts] = useState([]);
  const nextId = useRef(1);
  const timers = useRef(new Map());

  const dismiss = useCallback((id) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback(
    (message, tone = "info", detail = "") => {
      const id = nextId.current++;
      setToasts((current) => [...current, { id, message, tone, detail }].slice(-MAX_TOASTS));
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), TOAST_DURATION_MS),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  return { toasts, show, dismiss };
}
