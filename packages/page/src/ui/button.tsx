import type { ButtonHTMLAttributes } from 'react';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'link';
  /** Shows the busy text and refuses a second click while an action is saving. */
  busy?: boolean;
  busyText?: string;
  /** Refuses clicks without the busy text: an action not open yet, whose hint (aria-describedby) says when it opens. */
  inactive?: boolean;
};

/** Disabled only while busy or inactive, and then announced (aria-disabled keeps it focusable for screen-reader users). */
export function Button({
  variant = 'primary',
  busy = false,
  busyText,
  inactive = false,
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
      aria-disabled={busy || inactive || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        if (busy || inactive) {
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
