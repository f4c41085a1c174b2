import { useEffect, useRef, useState } from 'react';

/** Options of {@link useCountdown}. */
export interface CountdownOptions {
  /** Counting runs only while true; it starts from `seconds` the first time it becomes true. */
  enabled: boolean;
  /** Called once when the count reaches 0. */
  onDone: () => void;
}

/**
 * Counts down once a second from `seconds` to 0 and then calls `onDone` exactly once (also under StrictMode's
 * double effects). Returns the seconds left.
 */
export function useCountdown(seconds: number, { enabled, onDone }: CountdownOptions): number {
  const [left, setLeft] = useState(seconds);
  const onDoneRef = useRef(onDone);
  const done = useRef(false);

  useEffect(() => {
    onDoneRef.current = onDone;
  });

  useEffect(() => {
    if (!enabled) return;
    if (left <= 0) {
      if (!done.current) {
        done.current = true;
        onDoneRef.current();
      }
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [enabled, left]);

  return left;
}
