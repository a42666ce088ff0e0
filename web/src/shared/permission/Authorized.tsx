import type { ReactNode } from 'react';
import { useHasAction } from './use-has-action';

/** The permission directive: renders its children only when the user has the action. */
export function Authorized({ action, children }: { action: string; children: ReactNode }) {
  return useHasAction(action) ? children : null;
}
