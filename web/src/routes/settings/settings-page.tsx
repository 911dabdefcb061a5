import type { ReactNode } from 'react';
import { usePageTitle } from '../use-page-title';

/** A settings screen: its heading (also the page title) and content. */
export function SettingsPage({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <section className="settings__page" aria-labelledby="settings-heading">
      <h1 id="settings-heading" className="page__title">
        {title}
      </h1>
      {children}
    </section>
  );
}
