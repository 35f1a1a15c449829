import type { ButtonHTMLAttributes } from 'react';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'link';
  /** Shows the busy text and refuses a second click while an action is saving. */
  busy?: boolean;
  busyText?: string;
};

/** Disabled only while busy, and then announced (aria-disabled keeps it focusable for screen-reader users). */
export function Button({
  variant = 'primary',
  busy = false,
  busyText,
  children,
  onClick,
  className,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={`button button-${variant}${className ? ` ${className}` : ''}`}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {busy && busyText ? busyText : children}
    </button>
  );
}
