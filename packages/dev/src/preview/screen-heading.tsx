import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * The heading of a screen opened from another ("Assign and open", "Next task"): the control pressed left with the old
 * screen and the focus fell to the body, so it moves here and keyboard and screen-reader users continue from the top
 * of the new screen. A focus the developer already placed elsewhere stays. Without scrolling: where the screen opens
 * is the router's scroll restoration's call (preview-app.tsx), and Back returns to the position it saved.
 */
export function ScreenHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className="pv-title pv-screen-title">
      {children}
    </h1>
  );
}
