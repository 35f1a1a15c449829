import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A screen's heading. When `focusOnMount` is set (the screen replaced another after an action), focus moves to it so
 * keyboard and screen-reader users continue from the top of the new screen instead of from nowhere.
 */
export function FocusHeading({ id, focusOnMount, children }: { id?: string; focusOnMount: boolean; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  return (
    <h1 id={id} ref={ref} tabIndex={-1} className="screen-title">
      {children}
    </h1>
  );
}
