import '@ant-design/v5-patch-for-react-19';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/App';
import { initI18n } from './app/i18n';

// The CSP allows no eval: zod's compiled validators would probe `new Function` and every probe is
// reported as a violation even though zod catches it, so validation runs interpreted.
z.config({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The first render is in the reader's language: its catalog is loaded before anything is drawn.
void initI18n().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
