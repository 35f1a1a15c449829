import type { ReactNode } from 'react';

/**
 * A message that appears after an action. `alert` interrupts (an error the worker must act on); `status` is polite
 * (saved, progress). Both regions exist before their text changes, so screen readers announce the change.
 */
export function Notice({ tone, children }: { tone: 'error' | 'info' | 'success'; children?: ReactNode }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={children ? `notice notice-${tone}` : 'notice-empty'}>
      {children}
    </div>
  );
}
