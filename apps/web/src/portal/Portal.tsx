import { lazy, Suspense, useState } from 'react';
import { MEMBER_MESSAGES, PORTAL_TEXTS } from '@kanak/contract';
import { signOut } from './api';
import { useShopBranding } from './branding';
import { useRoute } from './router';
import { useSession } from './session';
import './portal.css';

// Each part's code is loaded when it is first shown: the first page carries neither the
// signed-in screens nor the component library they use.
const SignInPage = lazy(() =>
  import('./pages/SignInPage').then((m) => ({ default: m.SignInPage })),
);
const SignedIn = lazy(() => import('./SignedIn').then((m) => ({ default: m.SignedIn })));

/** While a screen's code or data loads. */
export function PlainLoading() {
  return (
    <div className="p-loading" aria-busy="true">
      <div className="p-spinner" role="progressbar" aria-label={PORTAL_TEXTS.loading} />
    </div>
  );
}

function Header({ signedIn }: { signedIn: boolean }) {
  const shop = useShopBranding();
  const [leaving, setLeaving] = useState(false);
  return (
    <header className="p-header no-print">
      <div className="p-column">
        <img src={shop?.logoUrl ?? '/favicon.svg'} alt="" />
        <div className="p-shop">
          {/* The shop's name once known; the page's own name meanwhile. */}
          <p className="p-shop-name">{shop?.companyName ?? PORTAL_TEXTS.productName}</p>
          {shop?.companyTagline && <p className="p-tagline">{shop.companyTagline}</p>}
        </div>
        {signedIn && (
          <button
            type="button"
            className="p-button p-button--light"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              void signOut(MEMBER_MESSAGES.signedOut).finally(() => setLeaving(false));
            }}
          >
            {PORTAL_TEXTS.signOut}
          </button>
        )}
      </div>
    </header>
  );
}

function Footer() {
  const shop = useShopBranding();
  if (!shop?.supportPhone) return null;
  return (
    <footer className="p-footer p-column no-print">
      <a href={`tel:${shop.supportPhone.replace(/[^\d+]/g, '')}`}>
        {PORTAL_TEXTS.support(shop.supportPhone)}
      </a>
    </footer>
  );
}

/** The customer's portal: the shop's header, then sign-in or the screen the address names. */
export function Portal() {
  const { token } = useSession();
  const route = useRoute();
  return (
    <div className="p-page">
      <Header signedIn={token !== null} />
      <main className="p-main p-column">
        <Suspense fallback={<PlainLoading />}>
          {/* A new session starts with fresh screens: nothing of the last one is kept. */}
          {token ? <SignedIn key={token} route={route} /> : <SignInPage />}
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
