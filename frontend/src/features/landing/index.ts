/** The landing page at `/`. Import from here (`features/landing`). */
export { LandingPage } from './components/LandingPage';
