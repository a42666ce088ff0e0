import type { TPermissionTreeNode } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import { toggle } from './tree-check';

const node = (key: string, children: TPermissionTreeNode[] = []): TPermissionTreeNode => ({
  key,
  title: key,
  menuType: children.length > 0 ? 0 : 2,
  perms: null,
  ruleCount: 0,
  children,
});
const tree = [node('account', [node('user', [node('add'), node('edit')]), node('role')])];

describe('role permission tree checks', () => {
  it('checks the menus above a checked button, but not its siblings', () => {
    expect([...toggle(tree, new Set(), 'add', true)].sort()).toEqual(['account', 'add', 'user']);
  });

  it('checks the pages and buttons of a checked group', () => {
    expect([...toggle(tree, new Set(), 'account', true)].sort()).toEqual([
      'account',
      'add',
      'edit',
      'role',
      'user',
    ]);
  });

  it('unchecks everything below an unchecked page and keeps the rest', () => {
    const all = new Set(['account', 'user', 'add', 'edit', 'role']);
    expect([...toggle(tree, all, 'user', false)].sort()).toEqual(['account', 'role']);
  });
});
