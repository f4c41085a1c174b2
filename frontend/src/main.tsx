import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { BootScreen, ConfigErrorScreen } from './app/BootScreens';
import { configureAuth } from './lib/auth/configure';
import { configureApi } from './lib/api-client';
import { loadRuntimeConfig } from './lib/runtime-config';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
root.render(<BootScreen />);

// Settings come from /config.json at run time, not from the bundle, so one build serves every stage.
loadRuntimeConfig().then(
  (config) => {
    configureApi({ apiBase: config.apiBase });
    configureAuth(config);
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    );
  },
  (error: unknown) => {
    console.error('Headshot Studio could not start:', error);
    root.render(<ConfigErrorScreen />);
  },
);
