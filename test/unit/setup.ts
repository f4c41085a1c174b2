import { configure } from '@testing-library/dom';

// Role queries walk the whole accessibility tree, which takes seconds for a full page in jsdom on a busy 2-core
// machine; the 1 s default made full-page tests flaky without making them any stricter.
configure({ asyncUtilTimeout: 10_000 });
