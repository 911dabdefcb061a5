import type { ReactNode } from 'react';
import { usePageTitle } from '../use-page-title';

/** A settings screen: its heading (also the page title), optional buttons beside it, and content. */
export function SettingsPage({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <section className="settings__page" aria-labelledby="settings-heading">
      <div className="settings__heading">
        <h1 id="settings-heading" className="page__title" tabIndex={-1}>
          {title}
        </h1>
        {actions && <div className="settings__heading-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
