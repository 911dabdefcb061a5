import type { ShareUnit } from '@burrow/protocol';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MaxDuration, ShareUnitChoices } from './share-links';
import './share-form-fields.css';

export type ShareFormValues = {
  /** As typed: validated when the form is submitted. */
  duration: string;
  unit: ShareUnit;
  password: string;
};

type ShareFormFieldsProps = {
  /** Id of the duration field, so the dialog can focus it. */
  durationId: string;
  values: ShareFormValues;
  onChange: (values: ShareFormValues) => void;
  /** Shown under the duration when it was refused. */
  durationError?: string;
};

/** The new-link form: a duration with its unit, and an optional password. */
export function ShareFormFields({ durationId, values, onChange, durationError }: ShareFormFieldsProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const errorId = useId();
  const unitLabels: Record<ShareUnit, string> = {
    seconds: t('shareDialog.units.seconds'),
    minutes: t('shareDialog.units.minutes'),
    hours: t('shareDialog.units.hours'),
    days: t('shareDialog.units.days'),
  };
  return (
    <>
      <div className="share-form__duration">
        <label className="field share-form__amount">
          <span className="field__label">{t('shareDialog.duration')}</span>
          <input
            id={durationId}
            className="input"
            type="number"
            inputMode="numeric"
            min={0}
            max={MaxDuration}
            step={1}
            value={values.duration}
            aria-invalid={durationError ? true : undefined}
            aria-describedby={durationError ? `${errorId} ${hintId}` : hintId}
            onChange={(event) => onChange({ ...values, duration: event.target.value })}
          />
        </label>
        <label className="field share-form__unit">
          <span className="field__label">{t('shareDialog.unit')}</span>
          <select className="input" value={values.unit} onChange={(event) => onChange({ ...values, unit: event.target.value as ShareUnit })}>
            {ShareUnitChoices.map((unit) => (
              <option key={unit} value={unit}>
                {unitLabels[unit]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {durationError && (
        <p id={errorId} className="share-form__error" role="alert">
          {durationError}
        </p>
      )}
      <p id={hintId} className="share-form__hint">
        {t('shareDialog.durationHint')}
      </p>
      <label className="field">
        <span className="field__label">{t('shareDialog.password')}</span>
        <input
          className="input"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(event) => onChange({ ...values, password: event.target.value })}
        />
      </label>
    </>
  );
}
