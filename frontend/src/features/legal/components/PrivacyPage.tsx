import {
  ACCESS_LOG_RETENTION_DAYS,
  ANALYTICS_EVENT_RETENTION_DAYS,
  HEADSHOT_RETENTION_DAYS,
  PHOTO_CHECK_RETENTION_DAYS,
  REFERENCE_DESCRIPTOR_RETENTION_HOURS,
  UPLOAD_RETENTION_DAYS,
  WIZARD_DRAFT_RETENTION_DAYS,
} from '../../../../../functions/domain/retention';
import { MAX_REFERENCE_PHOTOS } from '../../../../../functions/domain/photos';
import { paths } from '../../../config/paths';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';
import { formatDays, formatHours } from '../../../lib/format-period';
import { useLegalEntity } from '../hooks/use-legal-entity';
import { LegalList, LegalPage, LegalSection, TextLink } from './LegalPage';

/** How long each kind of data is kept: the periods the infrastructure enforces (functions/domain/retention.ts). */
export const RETENTION_ROWS: readonly { what: string; kept: string }[] = [
  { what: 'Photos you upload', kept: `${formatDays(UPLOAD_RETENTION_DAYS)}, then deleted automatically` },
  {
    what: 'Face measurements and face descriptors of your photos',
    kept: `${formatDays(PHOTO_CHECK_RETENTION_DAYS)} (a day longer than the photo they describe)`,
  },
  {
    what: 'Your unfinished generator draft (photo names, small previews, choices)',
    kept: `${formatDays(WIZARD_DRAFT_RETENTION_DAYS)} after your last change, then deleted automatically`,
  },
  {
    what: 'The face descriptor a generation compares headshots with',
    kept: `deleted within ${formatHours(REFERENCE_DESCRIPTOR_RETENTION_HOURS)} of the generation starting`,
  },
  {
    what: 'Generated headshots (every file) and their gallery entries',
    kept: `${formatDays(HEADSHOT_RETENTION_DAYS)} from the day they were made, then deleted automatically`,
  },
  {
    what: 'Headshots you share with a team',
    kept: 'until you stop sharing them, delete them or leave the team, and never longer than the headshot itself',
  },
  {
    what: 'Your place in a team (e-mail address, role, team allowance used)',
    kept: 'your e-mail address until you leave the team or are removed from it; the allowance you used as long as the team exists',
  },
  { what: 'Usage analytics events', kept: formatDays(ANALYTICS_EVENT_RETENTION_DAYS) },
  { what: 'Server access logs (IP addresses)', kept: formatDays(ACCESS_LOG_RETENTION_DAYS) },
  { what: 'Your account (e-mail address, credit balance)', kept: 'until you delete your account' },
  {
    what: 'Purchase and credit records',
    kept: 'kept for accounting and tax; when you delete your account they are kept without your e-mail address',
  },
];

/** `/privacy`: what we collect, why, who processes it, how long it is kept and how to delete it (issue 27 item 7). */
export function PrivacyPage() {
  const { supportEmail } = useRuntimeConfig();
  const { entity } = useLegalEntity();
  return (
    <LegalPage
      title="Privacy Policy"
      href={paths.privacy.href}
      summary={
        <p>
          Headshot Studio turns your selfies into professional headshots. To do that we handle your e-mail
          address, your photos and measurements of your face. This policy says what we collect, why, who helps
          us process it, how long we keep it, and how you delete it. We do not sell your data, and we use your
          photos and face data for nothing but making and checking your headshots.
        </p>
      }
    >
      <LegalSection id="who-we-are" title="Who we are">
        <p>
          {entity.name}, {entity.address} ({entity.registration}), runs Headshot Studio and is responsible for
          your data (the data controller). Write to us at{' '}
          <a className="font-medium text-brand-700 underline" href={`mailto:${supportEmail}`}>
            {supportEmail}
          </a>{' '}
          about anything in this policy.
        </p>
      </LegalSection>

      <LegalSection id="what-we-collect" title="What we collect and why">
        <LegalList>
          <li>
            <strong>Your e-mail address</strong>, to create your account, sign you in, tell you when your
            headshots are ready (you can turn this off on your dashboard) and answer you. Your password is
            handled by Amazon Cognito; we never see or store it.
          </li>
          <li>
            <strong>The photos you upload</strong>, to check them and make your headshots.
          </li>
          <li>
            <strong>Face data (biometric data).</strong> For each photo our face model finds the face,
            measures it (size, sharpness, lighting) and computes a face descriptor: a list of 128 numbers that
            describes the face. We use it only to check that your photos show one person, and the same person;
            to choose your best photos; and to measure how much each headshot looks like you (the likeness
            score behind our{' '}
            <TextLink to={`${paths.refunds.href}#likeness-guarantee`}>likeness guarantee</TextLink>). It is
            never used to identify you, never shared with anyone, never sold and never used to train any
            model. By uploading photos you consent to this processing; you can withdraw by deleting your
            photos.
          </li>
          <li>
            <strong>Your headshots</strong> and their likeness score (a number from 0 to 100), favorites and
            the style and background you chose, to show them in your gallery.
          </li>
          <li>
            <strong>Teams.</strong> When you join a team (a company buying headshots for its people), the team
            needs your e-mail address, your role and how much of your team allowance you have used, and it
            shows the headshots you choose to share with it (see{' '}
            <TextLink to={`${paths.privacy.href}#teams`}>Teams</TextLink>).
          </li>
          <li>
            <strong>Purchases.</strong> Payments are made on Stripe&apos;s checkout page: your card details go
            to Stripe and never reach our servers. We keep what you bought, the amount, its status and
            Stripe&apos;s receipt link, to credit your account and show your purchase history.
          </li>
          <li>
            <strong>Usage analytics.</strong> Which pages you view and what you do in the app (for example,
            that a generation started), with a random browser identifier, a session identifier and, when you
            are signed in, your account identifier, to understand how the product is used. We use no
            advertising or third-party tracking. Nothing at all is sent when your browser asks not to be
            tracked (Do Not Track or Global Privacy Control).
          </li>
          <li>
            <strong>Logs.</strong> Our servers log requests, including IP addresses, to keep the service
            secure and working.
          </li>
        </LegalList>
        <p>
          Your browser keeps your sign-in session (in its local storage) and, for the open tab, your
          unfinished generator choices (in its session storage), so that you stay signed in and do not lose
          your work. We use no cookies for advertising.
        </p>
      </LegalSection>

      <LegalSection id="processors" title="Who processes your data for us">
        <LegalList>
          <li>
            <strong>Amazon Web Services</strong> hosts the product: the website, sign-in (Amazon Cognito),
            your photos and headshots (Amazon S3, encrypted), our database, e-mail (Amazon SES) and analytics
            storage.
          </li>
          <li>
            <strong>Stripe</strong> processes payments and sends receipts.
          </li>
          <li>
            <strong>OpenAI</strong> makes the headshots: for each generation we send OpenAI your{' '}
            {MAX_REFERENCE_PHOTOS} best photos, cropped to head and shoulders, with a description of the style
            and background you chose, and OpenAI returns the edited images. Under OpenAI&apos;s API terms this
            data is not used to train their models, and OpenAI may keep it for up to 30 days to detect abuse.
          </li>
        </LegalList>
        <p>Each of them processes the data only on our instructions, under a data processing agreement.</p>
      </LegalSection>

      <LegalSection id="retention" title="How long we keep it">
        <p>These periods are enforced automatically by our systems:</p>
        <div className="overflow-x-auto rounded-2xl ring-1 ring-slate-200">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-slate-900">
              <tr>
                {['Data', 'Kept'].map((column) => (
                  <th key={column} scope="col" className="px-4 py-3 font-semibold">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {RETENTION_ROWS.map(({ what, kept }) => (
                <tr key={what}>
                  <th scope="row" className="px-4 py-3 align-top font-medium text-slate-900">
                    {what}
                  </th>
                  <td className="px-4 py-3 align-top text-slate-700">{kept}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>Download the headshots you want to keep: after that period they are gone for good.</p>
      </LegalSection>

      <LegalSection id="teams" title="Teams">
        <p>
          A team&apos;s owner and admins see only this of you: your e-mail address, your role, how much of
          your team allowance you have used, and the headshots you choose to share with the team. They never
          see your photos, your face data or the headshots you do not share. You choose each headshot you
          share, and you can stop sharing any of them at any time.
        </p>
        <p>
          Your photos and headshots stay yours. When you leave a team or are removed from it, the headshots
          you shared leave the team&apos;s gallery and the team no longer has your e-mail address; it keeps
          only how much of its allowance you used, so that a seat is not used twice. Your headshots stay in
          your own gallery.
        </p>
        <p>
          When you delete a headshot you shared, your data or your account, it leaves the team&apos;s gallery
          too. If you own a team that others are in, make one of them its owner before you delete your
          account.
        </p>
      </LegalSection>

      <LegalSection id="deleting" title="Deleting your data">
        <p>On your dashboard you can, at any time:</p>
        <LegalList>
          <li>delete any headshot (its files go with it);</li>
          <li>
            <strong>Delete my data</strong>: every photo, headshot and generation, and the face data of your
            photos, at once; your account and credits stay;
          </li>
          <li>
            <strong>Delete my account</strong>: all of the above and your account and sign-in. We keep the
            records of what you bought, without your e-mail address, because accounting law requires it.
            Unused credits are lost with the account: see the{' '}
            <TextLink to={paths.refunds.href}>Refund Policy</TextLink> first.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="your-rights" title="Your rights">
        <p>
          You can ask us for a copy of your data, to correct it, to delete it, to restrict or object to its
          processing, and to receive it in a portable form (your dashboard&apos;s Download all gives you every
          headshot). Write to {supportEmail}; we answer within one month. You may also complain to your data
          protection authority.
        </p>
      </LegalSection>

      <LegalSection id="security" title="Security">
        <p>
          Everything travels encrypted (HTTPS) and is stored encrypted. Your photos and headshots are private:
          only you can open them (and, of the headshots you share with a team, its owner and admins), through
          links that expire within about 20 minutes.
        </p>
      </LegalSection>

      <LegalSection id="children" title="Children">
        <p>Headshot Studio is for adults. Do not upload photos of anyone under 18.</p>
      </LegalSection>

      <LegalSection id="changes" title="Changes to this policy">
        <p>
          When we change this policy we update the date at the top, and we tell you by e-mail before a change
          that affects how we use data you have already given us.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
