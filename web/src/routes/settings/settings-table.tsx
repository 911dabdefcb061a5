import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The frame of a settings list: a card with a table, its caption, the given column headings and
 * a last, unnamed-on-screen column for row actions. Roles are spelled out because narrow screens
 * lay the rows out as blocks, which would otherwise drop the table semantics.
 */
export function SettingsTable({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="card settings-table-card">
      <table className="settings-table" role="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column} scope="col" role="columnheader">
                {column}
              </th>
            ))}
            <th scope="col" role="columnheader">
              <span className="visually-hidden">{t('settings.actions.label')}</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">{children}</tbody>
      </table>
    </div>
  );
}
