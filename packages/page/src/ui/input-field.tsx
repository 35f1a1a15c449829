import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { describedBy, fieldIds, hasContent } from './field-wiring.ts';

/** The input types that take typed text; a choice is a `Choice` in a `ChoiceGroup`, a single box a `CheckField`. */
type TextLikeType =
  'text' | 'email' | 'tel' | 'url' | 'password' | 'search' | 'number' | 'date' | 'time' | 'datetime-local' | 'month' | 'week';

export interface FieldTexts {
  /** The control's id; the hint, error and count take `<id>-hint`, `<id>-error` and `<id>-count`. */
  id: string;
  label: ReactNode;
  /** Said before the control and read with it: what to enter, in what form. */
  hint?: ReactNode;
  /** What is wrong, in the worker's language; shown and announced while set (the field is then `aria-invalid`). */
  error?: ReactNode;
  /** Read with the control after the hint, shown below it: a live count such as "19 of 500 characters used". */
  count?: ReactNode;
}

/** The props a screen may set on the control itself: the wiring (id, class, aria-*) is the field's. */
export type ControlProps<Attributes> = Omit<Attributes, 'id' | 'type' | 'className' | 'children' | 'aria-describedby' | 'aria-invalid'>;

/**
 * Label, hint, error (above the control, where a worker looking at the field reads it before typing) and the control,
 * with the hint, the count and the error in its `aria-describedby` so a screen reader says them on arrival.
 */
export function Field({ id, label, hint, error, count, control }: FieldTexts & { control: (wiring: ControlWiring) => ReactNode }) {
  const ids = fieldIds(id);
  const invalid = hasContent(error);
  const wiring: ControlWiring = {
    id,
    'aria-invalid': invalid,
    'aria-describedby': describedBy(hasContent(hint) && ids.hint, hasContent(count) && ids.count, invalid && ids.error),
  };
  return (
    <div className={`field${invalid ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {hasContent(hint) && (
        <p id={ids.hint} className="hint">
          {hint}
        </p>
      )}
      {invalid && (
        <p id={ids.error} className="field-error">
          {error}
        </p>
      )}
      {control(wiring)}
      {hasContent(count) && (
        <p id={ids.count} className="hint">
          {count}
        </p>
      )}
    </div>
  );
}

export interface ControlWiring {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/**
 * A question answered by typing: text, date, tel, email, number, time… Every type gets the same style (`field-input`),
 * so a new type is never rendered bare. For a whole number, prefer `type="text"` with `inputMode="numeric"`:
 * `type="number"` changes its value on a scroll and accepts "1e1".
 */
export function InputField({
  id,
  label,
  hint,
  error,
  count,
  type = 'text',
  width = 'full',
  ref,
  ...input
}: FieldTexts & {
  type?: TextLikeType;
  /** `short`: a value a few characters long (hours, a count), in a box as wide as what it expects. */
  width?: 'full' | 'short';
  ref?: Ref<HTMLInputElement>;
} & ControlProps<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      count={count}
      control={(wiring) => (
        <input
          {...input}
          {...wiring}
          ref={ref}
          type={type}
          className={width === 'short' ? 'field-input field-input-short' : 'field-input'}
        />
      )}
    />
  );
}

/** A question answered with free text over several lines. */
export function TextAreaField({
  id,
  label,
  hint,
  error,
  count,
  ref,
  ...textarea
}: FieldTexts & { ref?: Ref<HTMLTextAreaElement> } & ControlProps<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      count={count}
      control={(wiring) => <textarea {...textarea} {...wiring} ref={ref} className="field-input" />}
    />
  );
}
