import { useEffect } from 'react';
import { displayName } from '../lib/startup';
import { useAppSettings } from '../stores/app-settings-store';

/** Sets the document title to the (translated) page name followed by the display name. */
export function usePageTitle(pageName: string): void {
  const settings = useAppSettings((state) => state.settings);
  useEffect(() => {
    const name = displayName(settings);
    document.title = pageName ? `${pageName} - ${name}` : name;
  }, [pageName, settings]);
}
