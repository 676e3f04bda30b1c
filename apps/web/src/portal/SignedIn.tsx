import { lazy, Suspense } from 'react';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from '../app/theme';
import { Loading } from './parts';
import type { Route } from './router';

const HomePage = lazy(() => import('./pages/HomePage').then((m) => ({ default: m.HomePage })));
const PointsPage = lazy(() =>
  import('./pages/PointsPage').then((m) => ({ default: m.PointsPage })),
);
const PassbookPage = lazy(() =>
  import('./pages/PassbookPage').then((m) => ({ default: m.PassbookPage })),
);
const ReceiptPage = lazy(() =>
  import('./pages/PassbookPage').then((m) => ({ default: m.ReceiptPage })),
);
const PayPage = lazy(() => import('./pages/PayPage').then((m) => ({ default: m.PayPage })));
const ConsentsPage = lazy(() =>
  import('./pages/ConsentsPage').then((m) => ({ default: m.ConsentsPage })),
);

function Screen({ route }: { route: Route }) {
  switch (route.screen) {
    case 'points':
      return <PointsPage page={route.page} />;
    case 'passbook':
      return <PassbookPage schemeid={route.schemeid} />;
    case 'receipt':
      return <ReceiptPage schemeid={route.schemeid} receiptNo={route.receiptNo} />;
    case 'pay':
      return <PayPage schemeid={route.schemeid} />;
    case 'consents':
      return <ConsentsPage />;
    default:
      return <HomePage />;
  }
}

/** The signed-in screens, in the staff app's theme (its colours, type and focus ring). */
export function SignedIn({ route }: { route: Route }) {
  return (
    <ThemeProvider theme={theme}>
      <Suspense fallback={<Loading />}>
        <Screen route={route} />
      </Suspense>
    </ThemeProvider>
  );
}
