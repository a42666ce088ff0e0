import type { CSSProperties } from 'react';
import { createContext, useContext } from 'react';
import type { ConfigProblems } from './config-problems';

export type ConfigFormMode = 'full' | 'patch';
export type Values = Record<string, unknown>;

/** What every field of one form needs: the mode and the check of the whole form. */
export type FormContext = { mode: ConfigFormMode; problems: () => ConfigProblems };
export const ConfigFormContext = createContext<FormContext | null>(null);
export const useFormContext = () => useContext(ConfigFormContext)!;

/**
 * Fields flow into as many equal columns as their container fits (a drawer, a modal, a phone),
 * whatever the window's width.
 */
export const grid = (minWidth: number): CSSProperties => ({
  display: 'grid',
  gridTemplateColumns: `repeat(auto-fill, minmax(${minWidth}px, 1fr))`,
  columnGap: 16,
});
export const WIDE: CSSProperties = { gridColumn: '1 / -1' };
