import { TEAM_ERROR_MESSAGES, type InvitePreview } from '../../../../../functions/contracts/teams';
import { listDomains } from '../../../../../functions/domain/team-errors';
import { SEAT_EDIT_CREDITS } from '../../../../../functions/domain/team-seats';
import { formatAmount } from '../../../lib/format-price';

/**
 * The Teams screens' texts (docs/product-spec.md §2 "Teams", issue 37), verbatim; `{…}` filled in by the functions.
 * The error sentences are the API's own (§8), shown as it sends them.
 */

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** 'Create a team' (`/teams/new`). */
export const CREATE_TEAM_TEXT = {
  title: 'Create a team',
  name: 'Company name',
  domains: 'E-mail domains (optional)',
  domainsHint:
    'Only addresses at these domains can join through a link limited to them, e.g. acme.com. Separate domains with commas.',
  submit: 'Create team',
  failed: "We couldn't create the team. Please try again.",
} as const;

/** A team page's 'Seats': the team's credits, the seat price line, buying and the purchase history. */
export const SEATS_TEXT = {
  heading: 'Seats',
  creditsLeft: (n: number) => `${plural(n, 'credit', 'credits')} left`,
  explainer: `Each seat gives one person a generation of 6 headshots and ${SEAT_EDIT_CREDITS} edits (8 credits).`,
  quantity: 'Number of seats',
  priceLine: (seats: number, unitCents: number) =>
    `${plural(seats, 'seat', 'seats')} × ${formatAmount(unitCents)} = ${formatAmount(unitCents * seats)}`,
  buy: 'Buy seats',
  redirecting: 'Redirecting to secure checkout...',
  failed: 'Failed to initiate purchase. Please try again.',
  notCompleted: 'Payment not completed. You have not been charged.',
  owing: (n: number) =>
    `A refunded purchase left ${plural(n, 'credit', 'credits')} to settle: they come out of the next seats you buy.`,
  purchases: 'Purchase history',
  purchasesEmpty: 'No purchases yet. Seats you buy will be listed here with their receipts.',
  pack: 'Seats',
} as const;

/** A team page's 'Members': roles, states, allowance, the row actions and their questions. */
export const MEMBERS_TEXT = {
  heading: 'Members',
  roles: { owner: 'Owner', admin: 'Admin', member: 'Member' },
  states: { invited: 'Invited', joined: 'Joined', generating: 'Generating', shared: 'Shared' },
  expired: 'Expired',
  allowance: (generationsUsed: number, generations: number, editsUsed: number, edits: number) =>
    `Generation ${generationsUsed} of ${generations} · Edits ${editsUsed} of ${edits}`,
  makeAdmin: 'Make admin',
  makeMember: 'Make member',
  makeOwner: 'Make owner',
  remove: 'Remove',
  resend: 'Resend',
  resent: (email: string) => `Invitation sent again to ${email}.`,
  removeQuestion: (email: string, team: string) => `Remove ${email} from ${team}?`,
  removeBody: "Their shared headshots leave the team's gallery; their own headshots stay theirs.",
  ownerQuestion: (email: string, team: string) => `Make ${email} the owner of ${team}?`,
  ownerBody: 'You will become an admin.',
  actions: (email: string) => `Actions for ${email}`,
  you: 'You',
} as const;

/** A team page's 'Invite': links (shown once, their state) and e-mail invitations with their summary. */
export const INVITE_TEXT = {
  heading: 'Invite',
  link: 'Invite link',
  expiresAfter: 'Link expires after',
  days: (n: number) => plural(n, 'day', 'days'),
  cap: 'People who can join',
  domainsOnly: (domains: readonly string[]) => `Only addresses at ${listDomains(domains)}`,
  create: 'Create link',
  copy: 'Copy link',
  copied: 'Copied',
  copyFailed: 'Select the link and copy it.',
  shownOnce: 'Copy this link now: it is shown only once.',
  linkLine: (expires: string, uses: number, cap: number) => `Expires ${expires} · ${uses} of ${cap} joined`,
  status: {
    valid: 'Active',
    INVITE_EXPIRED: 'Expired',
    INVITE_USED_UP: 'Used up',
    INVITE_REVOKED: 'Turned off',
  },
  turnOff: 'Turn off',
  byEmail: 'Invite by e-mail',
  emails: 'E-mail addresses',
  emailsHint: "Paste addresses or a CSV file's text: every address in it is invited, 50 at a time.",
  csv: 'Add addresses from a CSV file',
  send: 'Send invitations',
  invited: (n: number) => `Invited ${n}.`,
  alreadyMembers: (n: number) => `${n} already in the team.`,
  alreadyInvited: (n: number) => `${n} already invited: use Resend.`,
  wrongDomain: (n: number) => `${n} not at your domains.`,
  invalid: (n: number) => `${n} not e-mail addresses.`,
  failed: (n: number) => `${n} could not be sent: use Resend.`,
} as const;

/** A team page's 'Brand look' (and a member's read of it). */
export const LOOK_TEXT = {
  heading: 'Brand look',
  intro: 'Members generate with these choices only. Choose one of each to lock it.',
  styles: 'Styles',
  backgrounds: 'Backgrounds',
  customColour: 'Custom colour',
  colourPicker: 'Colour picker',
  addColour: 'Add colour',
  removeColour: (colour: string) => `Remove ${colour}`,
  outfits: 'Outfits',
  save: 'Save look',
  saved: 'Look saved',
  locked: 'Set by your team',
} as const;

/** A team page's 'Shared headshots' and its ZIP. */
export const GALLERY_TEXT = {
  heading: 'Shared headshots',
  none: 'No one has shared a headshot yet.',
  download: 'Download ZIP',
  preparing: (done: number, total: number) => `Preparing ZIP ${done}/${total}...`,
  downloaded: (n: number) => `Downloaded ${plural(n, 'headshot', 'headshots')} as a ZIP`,
  failed: 'Failed to download the headshots. Please try again.',
  sharedBy: (email: string) => `Shared by ${email}`,
} as const;

/** A member's own seat, headshots and leaving. */
export const MEMBER_VIEW_TEXT = {
  pays: `Your team pays for your headshots: one generation of 6 headshots and ${SEAT_EDIT_CREDITS} edits.`,
  make: 'Make your team headshots',
  made: 'See your headshots',
  yours: 'Your team headshots',
  seat: 'Your seat',
  leave: 'Leave team',
  leaveQuestion: (team: string) => `Leave ${team}?`,
  leaveBody: "Your headshots stay yours; the ones you shared leave the team's gallery.",
  leaveConfirm: 'Leave',
  left: (team: string) => `You left ${team}.`,
} as const;

/** The join page of an invitation link (`/join/{token}`). */
export const JOIN_TEXT = {
  title: (team: string) => `Join ${team} on Headshot Studio`,
  domains: (domains: readonly string[]) => `Use your address at ${listDomains(domains)}.`,
  signedOut: 'Sign in or create an account to join.',
  signIn: 'Sign in',
  signUp: 'Create account',
  join: 'Join team',
  joined: (team: string) => `You joined ${team}.`,
  already: (team: string) => `You are already in ${team}.`,
  make: MEMBER_VIEW_TEXT.make,
  home: 'Go to Headshot Studio',
  otherAddress: 'Sign in with another address',
  loading: 'Opening the invitation…',
} as const;

/** The sentence of a link that cannot be used, from its preview's status (docs/product-spec.md §8). */
export function inviteProblem(status: InvitePreview['status']): string | null {
  return status === 'valid' ? null : TEAM_ERROR_MESSAGES[status];
}

/** The team page's frame: loading, a team the caller cannot see, the way back. */
export const TEAMS_TEXT = {
  heading: 'Teams',
  create: 'Create a team',
  empty: 'Buying headshots for your company? Create a team, buy a seat for each person and invite them.',
  failed: "We couldn't load your teams.",
  notFound: TEAM_ERROR_MESSAGES.TEAM_NOT_FOUND,
  loadFailed: "We couldn't load this team.",
  back: 'Dashboard',
  retry: 'Try again',
} as const;
