/**
 * The dashboard: the `/dashboard` screen with the user's headshots, favorites, downloads and data deletion. Import
 * from here (`features/dashboard`).
 */
export { DashboardPage } from './components/DashboardPage';
