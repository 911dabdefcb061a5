import { cleanup } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach } from 'vitest';
import en from './i18n/locales/en.json';

// Components render with the English texts, as they do for an English-speaking user.
await i18next.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

afterEach(() => {
  cleanup();
});
