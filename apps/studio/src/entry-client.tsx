import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './ui/tokens.css';

const container = document.getElementById('studio');
if (container)
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
