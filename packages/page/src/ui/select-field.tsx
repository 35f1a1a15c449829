import type { Ref, SelectHTMLAttributes } from 'react';
import { Field, type ControlProps, type FieldTexts } from './input-field.tsx';

/** A question answered by picking one of a list too long for radios, or whose options are names (a document type). */
export function SelectField({
  id,
  label,
  hint,
  error,
  ref,
  options,
  placeholder,
  ...select
}: Omit<FieldTexts, 'count'> & {
  options: readonly { value: string; label: string }[];
  /** The first, empty option: nothing chosen yet. */
  placeholder: string;
  ref?: Ref<HTMLSelectElement>;
} & ControlProps<SelectHTMLAttributes<HTMLSelectElement>>) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      control={(wiring) => (
        <select {...select} {...wiring} ref={ref} className="field-input">
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}
