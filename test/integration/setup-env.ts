import { inject } from 'vitest';

// Handlers parse their configuration from process.env at their first import (the cold start), so the emulators'
// endpoints must be in place before any test file imports one.
Object.assign(process.env, inject('localStack').env);
