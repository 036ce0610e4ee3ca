import { useEffect, useState } from 'react';

/** The time, renewed every `intervalMs` while mounted, for "2m ago" that stays right on a quiet cluster. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    timer.unref?.();
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
