import '@ant-design/v5-patch-for-react-19';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initI18n } from './app/i18n';

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
