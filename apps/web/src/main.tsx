import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startKeepingEarlyTyping } from './lib/early-typing';
import { resumeSession } from './lib/session';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// A reload keeps the signed-in user's name for the top bar and My Profile.
resumeSession();
// Digits typed while a screen still loads go into its first field, not nowhere.
startKeepingEarlyTyping();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
