import '@aws-amplify/ui-react/styles.css';
import './signin.css';
import { Authenticator, useAuthenticator } from '@aws-amplify/ui-react';
import { signIn, signUp, type SignInInput, type SignUpInput } from 'aws-amplify/auth';
import { ArrowLeft, Clock, Gift, ShieldCheck } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { HomeBrandLink } from '../../../components/HomeBrandLink';
import { Spinner } from '../../../components/ui/Spinner';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';
import { useAuth } from '../../../lib/auth/auth-context';
import { authFlowType } from '../../../lib/auth/configure';
import { sanitizeReturnTo } from '../../../lib/auth/return-to';
import { track } from '../../../lib/analytics';
import { paths } from '../../../config/paths';
import { generationTime } from '../../../lib/generation-time';
import { SIGNUP_BONUS_CREDITS } from '../../../../../functions/domain/credits';
import { signInError } from '../utils/sign-in-errors';

/**
 * The Authenticator's calls, with the sign-in flow the runtime configuration asks for: `USER_PASSWORD_AUTH`
 * locally (cognito-local has no SRP), `USER_SRP_AUTH` in the cloud. Sign-up asks for auto sign-in with the same
 * flow, so a new account is signed in as soon as it is confirmed: at once locally (the local pre-sign-up trigger
 * confirms it), after the e-mailed code in the cloud. A refused sign-in is shown in the customer's words.
 */
export const authenticatorServices = {
  // The Authenticator calls these with the input only; the casts drop Amplify's (context, input) overloads.
  // Cognito's refusals in the customer's words (../utils/sign-in-errors.ts).
  handleSignIn: ((input: SignInInput) =>
    signIn({
      ...input,
      options: { ...input.options, authFlowType: input.options?.authFlowType ?? authFlowType() },
    }).catch((error: unknown) => {
      throw signInError(error);
    })) as typeof signIn,
  handleSignUp: ((input: SignUpInput) => {
    const requested = input.options?.autoSignIn;
    const autoSignIn =
      requested === false
        ? false
        : { authFlowType: authFlowType(), ...(typeof requested === 'object' ? requested : {}) };
    return signUp({
      ...input,
      options: { userAttributes: {}, ...input.options, autoSignIn },
    }).then(
      (result) => {
        track('sign_up', { confirmed: result.isSignUpComplete });
        return result;
      },
      (error: unknown) => {
        throw signUpError(error);
      },
    );
  }) as typeof signUp,
};

/**
 * What the form shows when the user pool's web ACL refused the sign-up (Cognito's `ForbiddenException`): accounts
 * cannot be created from hosting, VPN or proxy addresses, nor many at once from one network
 * (docs/decisions/020-signup-cost.md). Any other error is shown as Amplify worded it.
 */
export const SIGN_UP_REFUSED_MESSAGE =
  "We can't create an account from this network right now. If you use a VPN or proxy, turn it off and try again; otherwise try again in 10 minutes.";

function signUpError(error: unknown): unknown {
  return error instanceof Error && error.name === 'ForbiddenException'
    ? Object.assign(new Error(SIGN_UP_REFUSED_MESSAGE), { name: error.name })
    : error;
}

const formFields = {
  signIn: {
    username: { label: 'Email', placeholder: 'you@company.com', autocomplete: 'email', isRequired: true },
    password: { placeholder: 'Your password', autocomplete: 'current-password' },
  },
  signUp: {
    email: { label: 'Email', placeholder: 'you@company.com', autocomplete: 'email', order: 1 },
    password: { placeholder: 'At least 8 characters', autocomplete: 'new-password', order: 2 },
    confirm_password: { label: 'Confirm password', placeholder: 'Repeat your password', order: 3 },
  },
  forgotPassword: {
    username: { label: 'Email', placeholder: 'you@company.com' },
  },
};

const HEADINGS: Record<string, { title: string; line: string }> = {
  signIn: { title: 'Welcome back', line: 'Sign in to create and download your headshots.' },
  signUp: {
    title: 'Create your account',
    line: `New accounts get ${SIGNUP_BONUS_CREDITS} free credits to try the service.`,
  },
  confirmSignUp: {
    title: 'Check your e-mail',
    line: 'Enter the code we sent you to finish creating your account.',
  },
  forgotPassword: { title: 'Reset your password', line: "We'll e-mail you a code to choose a new one." },
  confirmResetPassword: {
    title: 'Choose a new password',
    line: 'Enter the code from the e-mail and a new password.',
  },
};
const DEFAULT_HEADING = { title: 'Welcome', line: 'Sign in or create an account to get started.' };

function Heading() {
  const { route } = useAuthenticator((context) => [context.route]);
  const { title, line } = HEADINGS[route] ?? DEFAULT_HEADING;
  return (
    <div className="mb-6">
      <h1 className="font-display text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      <p className="mt-2 text-pretty text-slate-600">{line}</p>
    </div>
  );
}

function Busy({ label }: { label: string }) {
  return (
    <div className="flex min-h-72 flex-col items-center justify-center gap-3 text-slate-600">
      <Spinner className="text-brand-600" label={null} />
      <p role="status">{label}</p>
    </div>
  );
}

const PERKS = [
  { icon: Gift, text: `${SIGNUP_BONUS_CREDITS} free credits when you sign up` },
  // No fixed duration: the real image service's time is unmeasured (lib/generation-time.ts).
  { icon: Clock, text: generationTime() },
  { icon: ShieldCheck, text: 'Your photos stay private to your account' },
];

const COLLAGE = [
  { src: '/images/headshot-navy-studio.webp', className: 'translate-y-6' },
  { src: '/images/headshot-soft-gradient.webp', className: '' },
  { src: '/images/headshot-outdoor-green.webp', className: 'translate-y-10' },
];

/** The brand side of the sign-in screen (wide screens only): promise, perks and sample headshots. */
function BrandPanel() {
  return (
    <aside className="relative hidden overflow-hidden bg-gradient-to-br from-brand-700 via-brand-800 to-brand-950 text-white lg:flex lg:flex-col lg:justify-between lg:p-12 xl:p-16">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-32 -right-32 size-96 rounded-full bg-brand-400/30 blur-3xl"
      />
      <HomeBrandLink className="relative -m-1 self-start rounded-lg p-1" tone="light" />
      <div className="relative">
        <p className="max-w-md font-display text-4xl leading-tight font-bold tracking-tight text-balance">
          Professional headshots from your selfies.
        </p>
        <ul className="mt-8 space-y-4">
          {PERKS.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-3 text-brand-50">
              <span className="flex size-9 items-center justify-center rounded-xl bg-white/10 ring-1 ring-white/20">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              {text}
            </li>
          ))}
        </ul>
      </div>
      <div className="relative flex gap-4" aria-hidden="true">
        {COLLAGE.map(({ src, className }) => (
          <img
            key={src}
            src={src}
            alt=""
            width={160}
            height={160}
            className={`aspect-square w-1/3 max-w-40 rounded-2xl object-cover shadow-2xl ring-1 ring-white/20 ${className}`}
          />
        ))}
      </div>
    </aside>
  );
}

/**
 * `/signin`: the Amplify UI Authenticator (e-mail and password) in the app's own frame. `?mode=signup` opens the
 * Sign Up tab; once signed in, the user goes to `?returnTo` when it is a same-origin path, else to /dashboard.
 * Lazy-loaded by the router, so Amplify UI and its stylesheet stay out of the landing page's bundle.
 */
export function SignInPage() {
  const { status } = useAuth();
  const { supportEmail } = useRuntimeConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnTo = sanitizeReturnTo(params.get('returnTo'));
  const initialState = params.get('mode') === 'signup' ? 'signUp' : 'signIn';

  useEffect(() => {
    if (status === 'signedIn') void navigate(returnTo, { replace: true });
  }, [status, navigate, returnTo]);

  const services = useMemo(() => authenticatorServices, []);

  return (
    <div className="grid min-h-dvh bg-white lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <title>{`${initialState === 'signUp' ? 'Sign up' : 'Sign in'} · Headshot Studio`}</title>
      <BrandPanel />
      <div className="flex flex-col px-4 py-6 sm:px-8 lg:px-12">
        <header className="flex items-center justify-between gap-4">
          <HomeBrandLink className="-m-1 rounded-lg p-1 lg:invisible" />
          <Link
            to={paths.home.href}
            className="inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold text-slate-600 transition hover:bg-slate-100 hover:text-slate-900"
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to home
          </Link>
        </header>
        <main className="flex flex-1 items-center justify-center py-10">
          <div className="w-full max-w-md">
            {status === 'loading' ? (
              <Busy label="Checking your account…" />
            ) : status === 'signedIn' ? (
              <Busy label="Signing you in…" />
            ) : (
              <Authenticator.Provider>
                <Heading />
                <Authenticator
                  className="hs-authenticator"
                  initialState={initialState}
                  loginMechanisms={['email']}
                  signUpAttributes={[]}
                  formFields={formFields}
                  services={services}
                >
                  <Busy label="Signing you in…" />
                </Authenticator>
              </Authenticator.Provider>
            )}
          </div>
        </main>
        <footer className="text-center text-sm text-slate-500">
          Need help?{' '}
          <a href={`mailto:${supportEmail}`} className="font-medium text-brand-700 hover:underline">
            {supportEmail}
          </a>
        </footer>
      </div>
    </div>
  );
}
