import { Languages } from '../../i18n/languages';

type LanguageSelectProps = {
  id: string;
  value: string;
  onChange: (code: string) => void;
};

/** The 28 interface languages, each named in its own language. */
export function LanguageSelect({ id, value, onChange }: LanguageSelectProps) {
  const known = Languages.some((language) => language.code === value);
  return (
    <select id={id} className="input select" value={value} onChange={(event) => onChange(event.target.value)}>
      {!known && <option value={value}>{value || '—'}</option>}
      {Languages.map((language) => (
        <option key={language.code} value={language.code} lang={language.tag}>
          {language.name}
        </option>
      ))}
    </select>
  );
}
