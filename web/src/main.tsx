import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StartupElementId, type StartupSettings } from '@burrow/protocol';

function readStartup(): Partial<StartupSettings> {
  const element = document.getElementById(StartupElementId);
  try {
    return element?.textContent ? (JSON.parse(element.textContent) as StartupSettings) : {};
  } catch {
    return {};
  }
}

function App() {
  const startup = readStartup();
  return <h1>{startup.Name || 'Burrow'}</h1>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
