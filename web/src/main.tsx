import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { setLanguage } from './i18n/i18n';
import { decodeToken } from './lib/jwt';
import { applyTheme } from './lib/theme';
import { readStoredToken } from './lib/token-storage';
import { createAppRouter } from './routes/router';
import { appSettings } from './stores/app-settings-store';
import { connectSessionToHttpClient } from './stores/session-store';
import './styles/base.css';

const settings = appSettings();
applyTheme(settings.Theme);
connectSessionToHttpClient();

// Start fetching the translation at once, guessing from the stored session; the start-up step
// corrects it when the renewed token says otherwise.
const storedToken = readStoredToken();
const languageReady = setLanguage(storedToken ? decodeToken(storedToken)?.user.locale : undefined).catch((error: unknown) => {
  console.error('loading the translation failed', error);
});

const router = createAppRouter(settings.BaseURL);

void languageReady.then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
});
