import { useEffect, useRef } from 'react';
import { onlineManager } from '@tanstack/react-query';

/**
 * Waits before each automatic try of a save that got no answer: soon at first, then less often, so that a phone
 * left offline in a pocket does not keep its radio busy. The last value repeats.
 */
const RETRY_DELAYS_MS = [3_000, 6_000, 12_000, 30_000];

function retryDelay(failures: number): number {
  return RETRY_DELAYS_MS[Math.min(Math.max(failures, 1), RETRY_DELAYS_MS.length) - 1]!;
}

/**
 * While a save waits (`failures` > 0: it failed that many times in a row for want of an answer), tries it again when
 * the browser says the connection is back (TanStack Query's onlineManager, fed by the `online` event) and after a
 * growing delay, since no event comes when the server itself recovers or a stalled network clears.
 */
export function useSaveRetry(failures: number, retry: () => void): void {
  // The latest `retry` (it closes over the latest answers), without restarting the timer at each render.
  const latest = useRef(retry);
  useEffect(() => {
    latest.current = retry;
  });
  useEffect(() => {
    if (failures === 0) return;
    const timer = setTimeout(() => latest.current(), retryDelay(failures));
    const unsubscribe = onlineManager.subscribe((online) => {
      if (online) latest.current();
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [failures]);
}
