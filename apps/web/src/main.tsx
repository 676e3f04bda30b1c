import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { resumeSession } from './lib/session';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// A reload keeps the signed-in user's name for the top bar and My Profile.
resumeSession();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
