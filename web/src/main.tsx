import '@ant-design/v5-patch-for-react-19';
import './app/i18n';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/App';

// The CSP allows no eval: zod's compiled validators would probe `new Function` and every probe is
// reported as a violation even though zod catches it, so validation runs interpreted.
z.config({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
