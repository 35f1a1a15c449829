import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { workerHasActed } from './worker-input.ts';

/**
 * Whether the screen now mounting replaced what the worker was using: they pressed or typed in this page and the
 * focus has fallen to the body, as it does when the focused element (e.g. "Yes, start again") leaves the page. On the
 * page's first load nobody has, so the page leaves the keyboard with the portal around its iframe.
 */
function focusWasDropped(): boolean {
  const active = document.activeElement;
  return (active === null || active === document.body) && workerHasActed();
}

/**
 * A screen's heading. Focus moves to it when `focusOnMount` is set (the screen replaced another after an action the
 * screen knows of, such as a save) and when it mounts where the worker's focus was dropped, so keyboard and
 * screen-reader users continue from the top of the new screen instead of from nowhere.
 */
export function FocusHeading({ id, focusOnMount, children }: { id?: string; focusOnMount: boolean; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  // Before the new screen is painted: focusing scrolls the heading into view, so the worker never sees the screen at
  // the old scroll position first, and a press cannot land between the paint and the scroll.
  useLayoutEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  // After the commit: while the new screen renders, the element that brought it is still there and holds the focus.
  useLayoutEffect(() => {
    if (focusWasDropped()) ref.current?.focus();
  }, []);
  return (
    <h1 id={id} ref={ref} tabIndex={-1} className="screen-title">
      {children}
    </h1>
  );
}
