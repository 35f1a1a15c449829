import type { ReactNode, Ref } from 'react';

/**
 * A message that appears after an action. `alert` interrupts (an error the worker must act on); `status` is polite
 * (saved, progress). Both regions exist before their text changes, so screen readers announce the change.
 * `focusable` lets a screen move focus to the message (tabIndex -1: reachable by script, not a Tab stop), for a
 * result the worker must see where they are, such as a graded step's failed try on a phone.
 */
export function Notice({
  tone,
  children,
  ref,
  focusable = false,
  id,
}: {
  tone: 'error' | 'info' | 'success';
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
  focusable?: boolean;
  id?: string;
}) {
  return (
    <div
      ref={ref}
      id={id}
      tabIndex={focusable ? -1 : undefined}
      role={tone === 'error' ? 'alert' : 'status'}
      className={children ? `notice notice-${tone}` : 'notice-empty'}
    >
      {children}
    </div>
  );
}
