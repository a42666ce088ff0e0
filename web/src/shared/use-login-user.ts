import type { TUserInfo } from '@blrms/contracts';
import { useSyncExternalStore } from 'react';
import { getUserInfo, subscribeSession } from '../api/session';

/** The logged-in user as stored at login, updated when the department changes. */
export function useLoginUser(): TUserInfo | null {
  return useSyncExternalStore(subscribeSession, getUserInfo);
}
