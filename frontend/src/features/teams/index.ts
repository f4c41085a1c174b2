/**
 * Teams (issue 37, docs/teams.md): creating a team, a team's page (its dashboard for the owner and admins, a
 * member's own seat), and the page an invitation link opens. Import from here (`features/teams`).
 */
export { CreateTeamPage } from './components/CreateTeamPage';
export { JoinPage } from './components/JoinPage';
export { TeamPage } from './components/TeamPage';
