import type { Rule } from '@burrow/protocol';
import { Plus, Trash2 } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { newRule } from './user-draft';

type RulesEditorProps = {
  idPrefix: string;
  rules: Rule[];
  onChange: (rules: Rule[]) => void;
};

/**
 * Access rules, evaluated in order with the last match winning: each has a regex toggle, an allow
 * toggle and either a path (a folder and everything below it) or a regular expression.
 */
export function RulesEditor({ idPrefix, rules, onChange }: RulesEditorProps) {
  const { t } = useTranslation();
  const newButtonRef = useRef<HTMLButtonElement>(null);
  const update = (index: number, change: Partial<Rule>) => onChange(rules.map((rule, at) => (at === index ? { ...rule, ...change } : rule)));

  return (
    <fieldset className="form-fieldset rules-editor">
      <legend className="form-fieldset__legend">{t('settings.rules.title')}</legend>
      <p className="form-hint" id={`${idPrefix}-rules-help`}>
        {t('settings.rules.help')}
      </p>
      {rules.length === 0 ? (
        <p className="rules-editor__empty">{t('settings.rules.empty')}</p>
      ) : (
        <ol className="rules-editor__list">
          {rules.map((rule, index) => {
            const number = index + 1;
            const rowId = `${idPrefix}-rule-${index}`;
            return (
              <li key={index} className="rules-editor__row">
                <fieldset className="rules-editor__rule" aria-describedby={`${idPrefix}-rules-help`}>
                  <legend className="visually-hidden">{t('settings.rules.rule', { number })}</legend>
                  <label className="rules-editor__toggle">
                    <input type="checkbox" checked={rule.regex} onChange={(event) => update(index, { regex: event.target.checked })} />
                    <span>{t('settings.rules.regex')}</span>
                  </label>
                  <label className="rules-editor__toggle">
                    <input type="checkbox" checked={rule.allow} onChange={(event) => update(index, { allow: event.target.checked })} />
                    <span>{t('settings.rules.allow')}</span>
                  </label>
                  <input
                    id={`${rowId}-text`}
                    className="input rules-editor__text"
                    aria-label={rule.regex ? t('settings.rules.expression') : t('settings.rules.path')}
                    placeholder={rule.regex ? '\\.bak$' : '/private'}
                    spellCheck={false}
                    autoComplete="off"
                    value={rule.regex ? rule.regexp.raw : rule.path}
                    onChange={(event) =>
                      update(index, rule.regex ? { regexp: { raw: event.target.value } } : { path: event.target.value })
                    }
                  />
                  <button
                    type="button"
                    className="icon-button rules-editor__remove"
                    aria-label={t('settings.rules.remove', { number })}
                    title={t('settings.rules.remove', { number })}
                    onClick={() => {
                      onChange(rules.filter((_, at) => at !== index));
                      // The pressed button disappears with its row: keep keyboard users in the editor.
                      newButtonRef.current?.focus();
                    }}
                  >
                    <Trash2 aria-hidden="true" size={18} />
                  </button>
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
      <div>
        <button
          ref={newButtonRef}
          type="button"
          className="button"
          onClick={() => {
            onChange([...rules, newRule()]);
            // Straight to typing the new rule's path once it is rendered.
            const textId = `${idPrefix}-rule-${rules.length}-text`;
            requestAnimationFrame(() => document.getElementById(textId)?.focus());
          }}
        >
          <Plus aria-hidden="true" size={18} />
          {t('settings.rules.new')}
        </button>
      </div>
    </fieldset>
  );
}
