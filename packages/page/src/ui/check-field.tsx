import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { fieldIds, hasContent } from './field-wiring.ts';

/**
 * A single checkbox that is a question of its own (acknowledge, confirm), with its error below it and in its
 * `aria-describedby`. Several boxes answering one question are `Choice`s in a `ChoiceGroup`.
 */
export function CheckField({
  id,
  label,
  error,
  ref,
  ...input
}: {
  id: string;
  label: ReactNode;
  /** What is wrong, shown and announced while set (the box is then `aria-invalid`). */
  error?: ReactNode;
  ref?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'className' | 'children' | 'aria-describedby' | 'aria-invalid'>) {
  const errorId = fieldIds(id).error;
  const invalid = hasContent(error);
  return (
    <div className={invalid ? 'check-field field-invalid' : 'check-field'}>
      <div className="check">
        <input {...input} ref={ref} id={id} type="checkbox" aria-invalid={invalid} aria-describedby={invalid ? errorId : undefined} />
        <label htmlFor={id}>{label}</label>
      </div>
      {invalid && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
