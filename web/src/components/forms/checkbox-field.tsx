import type { ReactNode } from 'react';

type CheckboxFieldProps = {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** A sentence under the label, linked as the box's description. */
  hint?: ReactNode;
  id?: string;
};

/** A checkbox with its label beside it; the whole row is clickable. */
export function CheckboxField({ label, checked, onChange, disabled, hint, id }: CheckboxFieldProps) {
  const hintId = id && hint ? `${id}-hint` : undefined;
  return (
    <div className="check-field">
      <label className="check-field__row" data-disabled={disabled || undefined}>
        <input
          id={id}
          type="checkbox"
          className="check-field__box"
          checked={checked}
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span className="check-field__label">{label}</span>
      </label>
      {hint && (
        <p id={hintId} className="check-field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}
