import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { StepOfferResponse } from '@partner-task-kit/workflow/contract';

export interface CheckAgain {
  /** The server's wait is over: "Check again" asks the partner's backend (docs/api.md#get-apitaskstepsstepidoffer). */
  ready: boolean;
  /** How long the server said to wait, in whole seconds from its answer: for a hint such as "in 30 seconds". */
  waitSeconds: number;
  /** Asks the server again; ignored before `ready` (the server would answer the kept offer anyway). */
  checkAgain(): void;
}

/**
 * "Check again" on an empty offer: the server says how long it keeps it before it asks the partner's backend again
 * (`checkAgainInMs`), counted here from when its answer came, by this page's clock, since the phone's may differ from
 * the server's.
 */
export function useCheckAgain(offer: UseQueryResult<StepOfferResponse>): CheckAgain {
  const waitMs = offer.data?.checkAgainInMs ?? 0;
  const answeredAt = offer.dataUpdatedAt;
  // The answer whose wait is over: a new answer starts a new wait.
  const [waitedFor, setWaitedFor] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (waitMs <= 0) return;
    const timer = setTimeout(() => setWaitedFor(answeredAt), Math.max(0, answeredAt + waitMs - Date.now()));
    return () => clearTimeout(timer);
  }, [answeredAt, waitMs]);
  const ready = waitMs <= 0 || waitedFor === answeredAt;
  return { ready, waitSeconds: Math.ceil(waitMs / 1000), checkAgain: () => void (ready && offer.refetch()) };
}
