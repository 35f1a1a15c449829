import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

/*
 * The field wiring (field-wiring.ts) written out here, not imported: a link's first screen with a choice and no typed
 * field would split that module into a chunk of its own, one more file on every first page that has a typed field
 * (docs/development.md#benchmarks, packages/kit-tests/app-checks/page-build.test.ts).
 */
const hasContent = (node: ReactNode) => node !== undefined && node !== null && node !== false && node !== '';
const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;
const fieldIds = (id: string) => ({ hint: `${id}-hint`, error: `${id}-error` });

/**
 * A question answered by choosing: a `fieldset` whose `legend` is the question (screen readers say it before each
 * option), then the hint and the error, tied to the group by `aria-describedby`, then its `Choice`s.
 */
export function ChoiceGroup({
  id,
  legend,
  hint,
  error,
  invalid = hasContent(error),
  sharedErrorId,
  conditional = false,
  children,
}: {
  /** The fieldset's id; the hint and the error take `<id>-hint` and `<id>-error`. */
  id: string;
  legend: ReactNode;
  hint?: ReactNode;
  /** What is wrong, shown in the group while set. */
  error?: ReactNode;
  /** Marks the group as in error when its message is elsewhere (`sharedErrorId`); defaults to whether `error` is set. */
  invalid?: boolean;
  /** The id of one message outside the group that covers several groups (how many questions have no answer yet). */
  sharedErrorId?: string;
  /** A follow-up question that appears because of an answer above it: indented under it. */
  conditional?: boolean;
  children: ReactNode;
}) {
  const ids = fieldIds(id);
  const showError = hasContent(error);
  return (
    <fieldset
      id={id}
      className={`question${conditional ? ' conditional' : ''}${invalid ? ' field-invalid' : ''}`}
      aria-describedby={describedBy(hasContent(hint) && ids.hint, showError && ids.error, invalid && sharedErrorId)}
    >
      <legend>{legend}</legend>
      {hasContent(hint) && (
        <p id={ids.hint} className="hint">
          {hint}
        </p>
      )}
      {showError && (
        <p id={ids.error} className="field-error">
          {error}
        </p>
      )}
      {children}
    </fieldset>
  );
}

/** One option of a `ChoiceGroup`: a radio button (one answer) or a checkbox (several), with its label beside it. */
export function Choice({
  id,
  type,
  label,
  ref,
  ...input
}: {
  id: string;
  type: 'radio' | 'checkbox';
  label: ReactNode;
  ref?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'className' | 'children'>) {
  return (
    <div className="choice">
      <input {...input} ref={ref} id={id} type={type} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
