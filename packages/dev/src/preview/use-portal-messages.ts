import { useEffect, useRef, useState, type RefObject } from 'react';

export interface LoggedMessage {
  id: number;
  at: string;
  origin: string;
  data: string;
  verdict: 'end event' | 'not the end event' | 'wrong origin' | 'not from the task frame';
}

/**
 * docs/platform.md#partner-task-configuration / 6.1: the portal closes the iframe on the configured end event. Its delivery format is not shown, so both
 * forms the server can send (END_EVENT_FORMAT) count: the bare name, or an object whose `type` is the name. A message
 * counts only from the task iframe and at the task page's exact origin; every message is logged with its verdict.
 */
export function usePortalMessages(options: {
  frame: RefObject<HTMLIFrameElement | null>;
  expectedOrigin: string;
  endEvent: string | undefined;
  onEndEvent: () => void;
}): LoggedMessage[] {
  const [log, setLog] = useState<LoggedMessage[]>([]);
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    let nextId = 1;
    function onMessage(event: MessageEvent) {
      const { frame, expectedOrigin, endEvent, onEndEvent } = latest.current;
      const fromFrame = frame.current !== null && event.source === frame.current.contentWindow;
      const verdict: LoggedMessage['verdict'] = !fromFrame
        ? 'not from the task frame'
        : event.origin !== expectedOrigin
          ? 'wrong origin'
          : isEndEvent(event.data, endEvent)
            ? 'end event'
            : 'not the end event';
      const entry = { id: nextId++, at: new Date().toISOString(), origin: event.origin, data: describe(event.data), verdict };
      setLog((previous) => [entry, ...previous].slice(0, 50));
      if (verdict === 'end event') onEndEvent();
    }
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return log;
}

function isEndEvent(data: unknown, name: string | undefined): boolean {
  if (name === undefined || name === '') return false;
  if (data === name) return true;
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === name;
}

function describe(data: unknown): string {
  let text: string;
  try {
    text = typeof data === 'string' ? JSON.stringify(data) : (JSON.stringify(data) ?? String(data));
  } catch {
    text = String(data);
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
