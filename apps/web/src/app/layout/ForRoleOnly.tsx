import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MESSAGES, PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { meQuery, useMayOpen } from '../../lib/me';
import { SCREENS } from '../../lib/paths';
import { RouteLoading } from '../RouteStates';

/**
 * A screen the signed-in role may not use says so at once, instead of failing call by call;
 * such a screen waits for the role before it shows at all.
 */
export function ForRoleOnly({ pathname, children }: { pathname: string; children: ReactNode }) {
  const screen = SCREENS.find((candidate) => candidate.path === pathname);
  const { data: me, isError } = useQuery({ ...meQuery, enabled: screen?.access !== undefined });
  const mayOpen = useMayOpen();
  // Who is signed in could not be asked (the server away): the screen opens, and the server
  // still refuses what the role may not do.
  if (!screen || mayOpen(screen) || isError) return children;
  if (!me) return <RouteLoading />;
  return (
    <>
      <PageHeader title={PAGE_TITLES[screen.key]} />
      <Typography>{MESSAGES.notAllowed}</Typography>
    </>
  );
}
