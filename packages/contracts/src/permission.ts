import { z } from 'zod';

/** A button/action permission as the console's permission directive reads it (spec section 5). */
export const ZAuthEntry = z.object({
  action: z.string().describe('Permission code, e.g. system:log:list'),
  describe: z.string(),
  type: z
    .enum(['1', '2'])
    .describe("'1': hide without it, '2': disable without it (ignored by the directive)"),
  status: z
    .enum(['0', '1'])
    .optional()
    .describe("allAuth only: '0' means the rule is off, so the element is visible to all"),
});
export type TAuthEntry = z.infer<typeof ZAuthEntry>;

export const ZMenuMeta = z.object({
  title: z.string().describe('Title in the request language'),
  icon: z.string().nullable(),
  url: z.string().nullable().describe('External or iframe address'),
  keepAlive: z.boolean(),
  internalOrExternal: z.boolean().describe('true: open an external url in a new window'),
  permissionList: z.array(ZAuthEntry).describe('Button permissions under this menu'),
});

export type TMenuItem = {
  id: string;
  path: string;
  name: string;
  component: string;
  redirect: string | null;
  hidden: boolean;
  alwaysShow: boolean;
  route: '0' | '1';
  meta: z.infer<typeof ZMenuMeta>;
  children?: TMenuItem[];
};

export const ZMenuItem: z.ZodType<TMenuItem> = z.lazy(() =>
  z.object({
    id: z.string(),
    path: z.string(),
    name: z.string().describe('Route name, unique'),
    component: z
      .string()
      .describe('Page component key in the console registry, e.g. dashboard/Analysis'),
    redirect: z.string().nullable(),
    hidden: z.boolean(),
    alwaysShow: z.boolean(),
    route: z.enum(['0', '1']).describe("'0': no route is made for this item"),
    meta: ZMenuMeta,
    children: z.array(ZMenuItem).optional(),
  }),
);

export const ZUserPermission = z.object({
  menu: z.array(ZMenuItem),
  auth: z.array(ZAuthEntry),
  allAuth: z.array(ZAuthEntry),
});
export type TUserPermission = z.infer<typeof ZUserPermission>;

/**
 * Spec section 5: an element is removed unless the user has the action; allAuth entries with
 * status 0 make it visible; entries of type 2 are ignored.
 */
export function hasAction(
  perms: Pick<TUserPermission, 'auth' | 'allAuth'>,
  action: string,
): boolean {
  if (perms.auth.some((a) => a.action === action && a.type !== '2')) return true;
  return perms.allAuth.some((a) => a.action === action && a.type !== '2' && a.status === '0');
}
