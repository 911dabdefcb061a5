import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MaxNoteLength, type FileRequestFormValues } from './file-request-limits';
import './file-request-fields.css';

type FileRequestFieldsProps = {
  values: FileRequestFormValues;
  onChange: (values: FileRequestFormValues) => void;
  /** The field refused when the form was submitted. */
  invalid?: keyof FileRequestFormValues;
};

/**
 * The choice of an upload-only link (a file request) and, once chosen, its note and limits.
 * Only offered for folders the user may create files in.
 */
export function FileRequestFields({ values, onChange, invalid }: FileRequestFieldsProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const errorId = useId();
  const limitField = (key: 'maxFileSize' | 'maxTotalSize' | 'maxFiles', label: string) => (
    <label className="field file-request-fields__limit">
      <span className="field__label">{label}</span>
      <input
        className="input"
        type="text"
        inputMode={key === 'maxFiles' ? 'numeric' : 'decimal'}
        value={values[key]}
        placeholder={t('share.request.noLimit')}
        aria-invalid={invalid === key || undefined}
        aria-describedby={invalid === key ? errorId : undefined}
        onChange={(event) => onChange({ ...values, [key]: event.target.value })}
      />
    </label>
  );
  return (
    <fieldset className="file-request-fields">
      <label className="file-request-fields__toggle">
        <input type="checkbox" checked={values.uploadOnly} aria-describedby={hintId} onChange={(event) => onChange({ ...values, uploadOnly: event.target.checked })} />
        <span>{t('share.request.option')}</span>
      </label>
      <p id={hintId} className="share-form__hint file-request-fields__hint">
        {t('share.request.optionHint')}
      </p>
      {values.uploadOnly && (
        <>
          <label className="field">
            <span className="field__label">{t('share.request.note')}</span>
            <textarea
              className="input file-request-fields__note"
              rows={3}
              maxLength={MaxNoteLength}
              value={values.note}
              aria-invalid={invalid === 'note' || undefined}
              onChange={(event) => onChange({ ...values, note: event.target.value })}
            />
          </label>
          <div className="file-request-fields__limits">
            {limitField('maxFileSize', t('share.request.maxFileSize'))}
            {limitField('maxTotalSize', t('share.request.maxTotalSize'))}
            {limitField('maxFiles', t('share.request.maxFiles'))}
          </div>
          {invalid && (
            <p id={errorId} className="share-form__error" role="alert">
              {t('share.request.invalidLimit')}
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}
