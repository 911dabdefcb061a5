import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame';

type NamePromptProps = {
  title: string;
  description: string;
  label: string;
  submitLabel: string;
  /** Called with the trimmed, non-empty name; the dialog stays open while it runs. */
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
};

/** A dialog asking for one name. An empty (or all-blank) name does nothing. */
export function NamePrompt({ title, description, label, submitLabel, onSubmit, onClose }: NamePromptProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [isBusy, setBusy] = useState(false);

  const handleSubmit = async () => {
    const trimmed = name.trim();
    if (!trimmed || isBusy) return;
    setBusy(true);
    try {
      await onSubmit(trimmed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title={title}
      onSubmit={() => void handleSubmit()}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={isBusy}>
            {submitLabel}
          </button>
        </>
      }
    >
      <p>{description}</p>
      <label className="field">
        <span className="field__label">{label}</span>
        <input
          className="input"
          data-autofocus
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </label>
    </DialogFrame>
  );
}
