/**
 * The gallery: the `/dashboard` screen with the user's headshots, favorites, downloads and data deletion. Import
 * from here (`features/gallery`).
 */
export { DashboardPage } from './components/DashboardPage';
