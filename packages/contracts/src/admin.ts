import { z } from 'zod';
import { ZUsername } from './auth.js';
import { PASSWORD_MIN_LENGTH } from './constants.js';
import { ZId, ZPageQuery, ZTimeZone, ZTimestamp, pageOf } from './common.js';
import { ZDataRule } from './data-rule.js';
import { EXPORT_FORMATS } from './device.js';

/**
 * Administration of login accounts, roles and the menu/permission catalogue (spec "Account
 * permissions"). Every request schema is strict: a field the form does not offer is refused.
 */

export const ADMIN_USER_STATUS = { normal: 1, frozen: 2 } as const;

export const ZAdminPhone = z.string().regex(/^1[3-9]\d{9}$/, 'must be a valid mobile number');
export const ZAdminEmail = z.email('must be a valid email address').max(255);

/** Comma-separated ids in a query (`deleteBatch?ids=a,b`). */
export const ZAdminIdList = z
  .string()
  .min(1)
  .max(33 * 1000)
  .transform((s) => s.split(','))
  .pipe(z.array(ZId).min(1).max(1000));

// ---------------------------------------------------------------------------------------------
// Login accounts
// ---------------------------------------------------------------------------------------------

export const ZAdminUser = z.object({
  id: ZId,
  username: z.string(),
  realname: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.number().int().describe('1 normal, 2 frozen'),
  companyId: ZId,
  companyName: z.string(),
  orgCode: z.string().nullable(),
  roleIds: z.array(ZId),
  roleNames: z.array(z.string()),
  departIds: z.array(ZId),
  departNames: z.array(z.string()),
  positionIds: z.array(ZId),
  createTime: ZTimestamp,
});
export type TAdminUser = z.infer<typeof ZAdminUser>;

export const ADMIN_USER_SORT_COLUMNS = ['createTime', 'username', 'realname'] as const;

const userFilters = {
  username: z.string().max(64).optional(),
  realname: z.string().max(100).optional(),
  phone: z.string().max(32).optional(),
  status: z.coerce.number().int().min(1).max(2).optional(),
  departId: ZId.optional(),
  companyId: ZId.optional().describe('Platform administrators only: users of this company'),
};

export const ZAdminUserQuery = ZPageQuery.extend({
  ...userFilters,
  column: z.enum(ADMIN_USER_SORT_COLUMNS).default('createTime'),
}).strict();
export type TAdminUserQuery = z.infer<typeof ZAdminUserQuery>;
export const ZAdminUserPage = pageOf(ZAdminUser);
export type TAdminUserPage = z.infer<typeof ZAdminUserPage>;

export const ZAdminUserExportQuery = z
  .object({
    ...userFilters,
    format: z.enum(EXPORT_FORMATS).default('xlsx'),
    tz: ZTimeZone.optional(),
    _t: z.string().optional(),
  })
  .strict();
export type TAdminUserExportQuery = z.infer<typeof ZAdminUserExportQuery>;

const userFields = {
  realname: z.string().trim().min(1).max(100),
  phone: ZAdminPhone.nullable().optional(),
  email: ZAdminEmail.nullable().optional(),
  roleIds: z.array(ZId).max(100).default([]),
  departIds: z.array(ZId).max(100).default([]),
  positionIds: z.array(ZId).max(100).default([]),
};

export const ZAdminUserPassword = z.string().min(PASSWORD_MIN_LENGTH).max(128);

export const ZAdminUserAdd = z
  .object({
    username: ZUsername,
    password: ZAdminUserPassword,
    ...userFields,
    companyId: ZId.optional().describe(
      'Platform administrators only; defaults to the current company',
    ),
  })
  .strict();
export type TAdminUserAdd = z.infer<typeof ZAdminUserAdd>;

export const ZAdminUserEdit = z.object({ id: ZId, ...userFields }).strict();
export type TAdminUserEdit = z.infer<typeof ZAdminUserEdit>;

export const ZFrozenBatch = z
  .object({
    ids: z
      .string()
      .min(1)
      .max(33 * 1000),
    status: z.enum(['1', '2']).describe('1 unfreeze, 2 freeze'),
  })
  .strict();
export type TFrozenBatch = z.infer<typeof ZFrozenBatch>;

/** An administrator sets a user's password: no old password, the policy still holds. */
export const ZAdminChangePassword = z
  .object({
    username: z.string().min(1).max(64),
    password: ZAdminUserPassword,
    confirmpassword: z.string().min(1).max(128),
  })
  .strict()
  .refine((v) => v.password === v.confirmpassword, {
    path: ['confirmpassword'],
    message: 'must equal password',
  });
export type TAdminChangePassword = z.infer<typeof ZAdminChangePassword>;

export const ZCheckOnlyUserQuery = z
  .object({
    id: ZId.optional().describe('The user being edited, excluded from the check'),
    username: z.string().max(64).optional(),
    phone: z.string().max(32).optional(),
    email: z.string().max(255).optional(),
    _t: z.string().optional(),
  })
  .strict();
export type TCheckOnlyUserQuery = z.infer<typeof ZCheckOnlyUserQuery>;

export const ZUserImportResult = z.object({
  created: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
});
export type TUserImportResult = z.infer<typeof ZUserImportResult>;

/** Columns of the export file, in order; the import reads the same header. */
export const USER_FILE_COLUMNS = ['username', 'realname', 'phone', 'email', 'status'] as const;

// ---------------------------------------------------------------------------------------------
// Roles
// ---------------------------------------------------------------------------------------------

export const ZRole = z.object({
  id: ZId,
  companyId: ZId,
  roleCode: z.string(),
  roleName: z.string(),
  roleNameEn: z.string().nullable(),
  description: z.string().nullable(),
  createTime: ZTimestamp,
});
export type TRole = z.infer<typeof ZRole>;

export const ROLE_SORT_COLUMNS = ['createTime', 'roleCode', 'roleName'] as const;
export const ZRoleQuery = ZPageQuery.extend({
  roleName: z.string().max(100).optional().describe('Substring of the name or code'),
  column: z.enum(ROLE_SORT_COLUMNS).default('createTime'),
}).strict();
export type TRoleQuery = z.infer<typeof ZRoleQuery>;
/** A role on the role list, with how many users hold it (said before it is deleted). */
export const ZRoleListItem = ZRole.extend({ userCount: z.number().int().nonnegative() });
export type TRoleListItem = z.infer<typeof ZRoleListItem>;
export const ZRolePage = pageOf(ZRoleListItem);
export type TRolePage = z.infer<typeof ZRolePage>;

export const ZRoleQueryAll = z
  .object({
    companyId: ZId.optional().describe('Platform administrators only: roles of this company'),
    _t: z.string().optional(),
  })
  .strict();

const roleFields = {
  roleCode: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'letters, digits and _, starting with a letter'),
  roleName: z.string().trim().min(1).max(100),
  roleNameEn: z.string().trim().max(100).nullable().optional(),
  description: z.string().trim().max(255).nullable().optional(),
};
export const ZRoleAdd = z.object(roleFields).strict();
export type TRoleAdd = z.infer<typeof ZRoleAdd>;
export const ZRoleEdit = z.object({ id: ZId, ...roleFields }).strict();
export type TRoleEdit = z.infer<typeof ZRoleEdit>;

export const ZRolePermissionQuery = z.object({ roleId: ZId, _t: z.string().optional() }).strict();
export const ZSaveRolePermission = z
  .object({ roleId: ZId, permissionIds: z.array(ZId).max(5000) })
  .strict();
export type TSaveRolePermission = z.infer<typeof ZSaveRolePermission>;

export const ZPermissionRuleQuery = z
  .object({ permissionId: ZId, roleId: ZId, _t: z.string().optional() })
  .strict();
export const ZSaveRoleDataRule = z
  .object({ roleId: ZId, permissionId: ZId, dataRuleIds: z.array(ZId).max(100) })
  .strict();
export type TSaveRoleDataRule = z.infer<typeof ZSaveRoleDataRule>;

// ---------------------------------------------------------------------------------------------
// Menu permissions (global catalogue) and their data rules
// ---------------------------------------------------------------------------------------------

export const PERMISSION_MENU_TYPE = { menu: 0, page: 1, button: 2 } as const;

export type TPermissionNode = {
  id: string;
  parentId: string | null;
  name: string;
  nameEn: string | null;
  menuType: number;
  url: string | null;
  component: string | null;
  componentName: string | null;
  redirect: string | null;
  perms: string | null;
  permsType: '1' | '2';
  status: '0' | '1';
  sortNo: number;
  icon: string | null;
  hidden: boolean;
  keepAlive: boolean;
  alwaysShow: boolean;
  route: boolean;
  internalOrExternal: boolean;
  ruleCount: number;
  children?: TPermissionNode[];
};
export const ZPermissionNode: z.ZodType<TPermissionNode> = z.lazy(() =>
  z.object({
    id: ZId,
    parentId: ZId.nullable(),
    name: z.string(),
    nameEn: z.string().nullable(),
    menuType: z.number().int().describe('0 menu, 1 page (submenu), 2 button'),
    url: z.string().nullable(),
    component: z.string().nullable(),
    componentName: z.string().nullable(),
    redirect: z.string().nullable(),
    perms: z.string().nullable(),
    permsType: z.enum(['1', '2']),
    status: z.enum(['0', '1']),
    sortNo: z.number().int(),
    icon: z.string().nullable(),
    hidden: z.boolean(),
    keepAlive: z.boolean(),
    alwaysShow: z.boolean(),
    route: z.boolean(),
    internalOrExternal: z.boolean(),
    ruleCount: z.number().int().describe('Data rules defined on this permission'),
    children: z.array(ZPermissionNode).optional(),
  }),
);

/** Tree for the role authorisation dialog (`key`/`title` as tree controls expect). */
export type TPermissionTreeNode = {
  key: string;
  title: string;
  menuType: number;
  perms: string | null;
  ruleCount: number;
  children?: TPermissionTreeNode[];
};
export const ZPermissionTreeNode: z.ZodType<TPermissionTreeNode> = z.lazy(() =>
  z.object({
    key: ZId,
    title: z.string(),
    menuType: z.number().int(),
    perms: z.string().nullable(),
    ruleCount: z.number().int(),
    children: z.array(ZPermissionTreeNode).optional(),
  }),
);
export const ZPermissionTree = z.object({
  treeList: z.array(ZPermissionTreeNode),
  ids: z.array(ZId).describe('Every id in the tree'),
});
export type TPermissionTree = z.infer<typeof ZPermissionTree>;

const PERMS_CODE = /^[A-Za-z][A-Za-z0-9_-]*(:[A-Za-z0-9_-]+)*$/;

const permissionFields = {
  parentId: ZId.nullable().default(null),
  name: z.string().trim().min(1).max(100),
  nameEn: z.string().trim().max(100).nullable().optional(),
  menuType: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  url: z.string().trim().max(255).nullable().optional(),
  component: z.string().trim().max(255).nullable().optional(),
  componentName: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{0,99}$/, 'letters, digits, _ and -')
    .nullable()
    .optional(),
  redirect: z.string().trim().max(255).nullable().optional(),
  perms: z
    .string()
    .trim()
    .max(255)
    .refine(
      (v) => v === '' || v.split(',').every((c) => PERMS_CODE.test(c.trim())),
      'comma-separated codes like device:list',
    )
    .nullable()
    .optional(),
  permsType: z.enum(['1', '2']).default('1'),
  status: z.enum(['0', '1']).default('1'),
  sortNo: z.number().int().min(0).max(100_000).default(0),
  icon: z.string().trim().max(100).nullable().optional(),
  hidden: z.boolean().default(false),
  keepAlive: z.boolean().default(false),
  alwaysShow: z.boolean().default(false),
  route: z.boolean().default(true),
  internalOrExternal: z.boolean().default(false),
};
export const ZPermissionAdd = z.object(permissionFields).strict();
export type TPermissionAdd = z.infer<typeof ZPermissionAdd>;
export const ZPermissionEdit = z.object({ id: ZId, ...permissionFields }).strict();
export type TPermissionEdit = z.infer<typeof ZPermissionEdit>;

export const ZPermissionDataRule = ZDataRule.extend({
  id: ZId,
  permissionId: ZId,
  createTime: ZTimestamp,
});
export type TPermissionDataRule = z.infer<typeof ZPermissionDataRule>;

export const ZPermissionRuleList = z
  .object({ permissionId: ZId, _t: z.string().optional() })
  .strict();
export const ZPermissionRuleAdd = ZDataRule.extend({ permissionId: ZId }).strict();
export type TPermissionRuleAdd = z.infer<typeof ZPermissionRuleAdd>;
export const ZPermissionRuleEdit = ZDataRule.extend({ id: ZId }).strict();
export type TPermissionRuleEdit = z.infer<typeof ZPermissionRuleEdit>;

/** Rules of one permission and those a role's grant of it carries. */
export const ZRoleDataRules = z.object({
  datarule: z.array(ZPermissionDataRule),
  drChecked: z.array(ZId),
});
export type TRoleDataRules = z.infer<typeof ZRoleDataRules>;

export const ZAdminIdQuery = z.object({ id: ZId, _t: z.string().optional() }).strict();
export const ZAdminIdsQuery = z.object({ ids: ZAdminIdList }).strict();
