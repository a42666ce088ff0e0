import { z } from 'zod';
import { ZUsername } from './auth.js';
import { PASSWORD_MIN_LENGTH } from './constants.js';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';

/* Departments, department permissions and roles, positions and companies (issue 6). */

export const ZOrgIdQuery = z.object({ id: ZId, _t: z.string().optional() }).strict();
export type TOrgIdQuery = z.infer<typeof ZOrgIdQuery>;

export const ZOrgIdsQuery = z
  .object({
    ids: z
      .string()
      .min(1)
      .max(33 * 1000)
      .regex(/^[0-9a-f]{32}(,[0-9a-f]{32})*$/, 'must be comma-separated ids')
      .describe('Comma-separated ids'),
  })
  .strict();
export type TOrgIdsQuery = z.infer<typeof ZOrgIdsQuery>;

/** 1: company, 2: organisation (department), 3: post — dictionary `org_category`. */
export const ORG_CATEGORIES = ['1', '2', '3'] as const;
export const ZOrgCategory = z.enum(ORG_CATEGORIES).describe('1 company, 2 organisation, 3 post');

export type TDepartTreeNode = {
  id: string;
  key: string;
  value: string;
  title: string;
  parentId: string | null;
  orgCode: string;
  orgCategory: (typeof ORG_CATEGORIES)[number];
  departName: string;
  departNameEn: string | null;
  departOrder: number;
  children: TDepartTreeNode[];
};

export const ZDepartTreeNode: z.ZodType<TDepartTreeNode> = z.lazy(() =>
  z.object({
    id: ZId,
    key: ZId.describe('Same as id (tree widgets)'),
    value: ZId.describe('Same as id (tree selects)'),
    title: z.string().describe('Name in the request language'),
    parentId: ZId.nullable(),
    orgCode: z.string().describe('Hierarchical code: A01, A01A01, ...'),
    orgCategory: ZOrgCategory,
    departName: z.string(),
    departNameEn: z.string().nullable(),
    departOrder: z.number().int(),
    children: z.array(ZDepartTreeNode),
  }),
);

const departName = z.string().trim().min(1).max(100);

export const ZDepartAdd = z
  .object({
    parentId: ZId.nullable().optional().describe('Parent department; none for a top level one'),
    departName,
    departNameEn: z.string().trim().max(100).nullable().optional(),
    orgCategory: ZOrgCategory,
    departOrder: z.number().int().min(0).max(9999).default(0),
  })
  .strict();
export type TDepartAdd = z.infer<typeof ZDepartAdd>;

export const ZDepartEdit = z
  .object({
    id: ZId,
    departName,
    departNameEn: z.string().trim().max(100).nullable().optional(),
    orgCategory: ZOrgCategory,
    departOrder: z.number().int().min(0).max(9999).default(0),
  })
  .strict();
export type TDepartEdit = z.infer<typeof ZDepartEdit>;

export const ZDepartSearchQuery = z
  .object({ keyWord: z.string().trim().min(1).max(100), _t: z.string().optional() })
  .strict();

export const ZDepartMember = z.object({
  id: ZId,
  username: z.string(),
  realname: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.number().int().describe('1 normal, 2 frozen'),
});
export type TDepartMember = z.infer<typeof ZDepartMember>;

export const ZDepartMemberQuery = ZPageQuery.extend({
  depId: ZId,
  username: z.string().trim().max(64).optional().describe('Substring of username or real name'),
  column: z.enum(['username', 'realname', 'createTime']).default('createTime'),
}).strict();
export type TDepartMemberQuery = z.infer<typeof ZDepartMemberQuery>;

export const ZMemberCandidateQuery = z
  .object({
    depId: ZId,
    keyWord: z.string().trim().max(64).optional(),
    _t: z.string().optional(),
  })
  .strict();
export type TMemberCandidateQuery = z.infer<typeof ZMemberCandidateQuery>;

export const ZDepartMembersAdd = z
  .object({ depId: ZId, userIdList: z.array(ZId).min(1).max(500) })
  .strict();
export type TDepartMembersAdd = z.infer<typeof ZDepartMembersAdd>;

export const ZDepartMemberRemoveQuery = z
  .object({ depId: ZId, userIds: ZOrgIdsQuery.shape.ids })
  .strict();
export type TDepartMemberRemoveQuery = z.infer<typeof ZDepartMemberRemoveQuery>;

/** A menu/button permission as a checkbox tree node. */
export type TGrantTreeNode = {
  key: string;
  title: string;
  menuType: number;
  perms: string | null;
  children: TGrantTreeNode[];
};
export const ZGrantTreeNode: z.ZodType<TGrantTreeNode> = z.lazy(() =>
  z.object({
    key: ZId,
    title: z.string(),
    menuType: z.number().int().describe('0 menu, 1 sub-menu, 2 button'),
    perms: z.string().nullable(),
    children: z.array(ZGrantTreeNode),
  }),
);

export const ZGrantTree = z.object({
  treeList: z.array(ZGrantTreeNode),
  ids: z.array(ZId).describe('Every id in the tree'),
});
export type TGrantTree = z.infer<typeof ZGrantTree>;

export const ZDepartIdQuery = z.object({ departId: ZId, _t: z.string().optional() }).strict();

export const ZSaveDepartPermission = z
  .object({ departId: ZId, permissionIds: z.array(ZId).max(5000) })
  .strict();
export type TSaveDepartPermission = z.infer<typeof ZSaveDepartPermission>;

export const ZDepartRole = z.object({
  id: ZId,
  departId: ZId,
  roleName: z.string(),
  roleCode: z.string(),
  createTime: ZTimestamp,
});
export type TDepartRole = z.infer<typeof ZDepartRole>;

export const ZDepartRoleQuery = ZPageQuery.extend({
  deptId: ZId,
  roleName: z.string().trim().max(100).optional(),
  column: z.enum(['roleName', 'roleCode', 'createTime']).default('createTime'),
}).strict();
export type TDepartRoleQuery = z.infer<typeof ZDepartRoleQuery>;

const roleCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');

export const ZDepartRoleAdd = z
  .object({ departId: ZId, roleName: z.string().trim().min(1).max(100), roleCode })
  .strict();
export type TDepartRoleAdd = z.infer<typeof ZDepartRoleAdd>;

export const ZDepartRoleEdit = z
  .object({ id: ZId, roleName: z.string().trim().min(1).max(100), roleCode })
  .strict();
export type TDepartRoleEdit = z.infer<typeof ZDepartRoleEdit>;

export const ZRoleIdQuery = z.object({ roleId: ZId, _t: z.string().optional() }).strict();

export const ZSaveDeptRolePermission = z
  .object({ roleId: ZId, permissionIds: z.array(ZId).max(5000) })
  .strict();
export type TSaveDeptRolePermission = z.infer<typeof ZSaveDeptRolePermission>;

export const ZSaveDeptRoleUsers = z
  .object({ roleId: ZId, userIds: z.array(ZId).max(1000) })
  .strict();
export type TSaveDeptRoleUsers = z.infer<typeof ZSaveDeptRoleUsers>;

/* Positions */

export const ZPosition = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  postRank: z.string().nullable().describe('Value of the `position_rank` dictionary'),
  createTime: ZTimestamp,
});
export type TPosition = z.infer<typeof ZPosition>;

export const POSITION_SORT_COLUMNS = ['createTime', 'code', 'name', 'postRank'] as const;

export const ZPositionQuery = ZPageQuery.extend({
  name: z.string().trim().max(100).optional().describe('Substring of the name'),
  code: z.string().trim().max(64).optional().describe('Substring of the code'),
  postRank: z.string().trim().max(32).optional().describe('Exact rank'),
  column: z.enum(POSITION_SORT_COLUMNS).default('createTime'),
}).strict();
export type TPositionQuery = z.infer<typeof ZPositionQuery>;

const positionFields = {
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
  name: z.string().trim().min(1).max(100),
  postRank: z.string().trim().min(1).max(32),
};

export const ZPositionAdd = z.object(positionFields).strict();
export type TPositionAdd = z.infer<typeof ZPositionAdd>;
export const ZPositionEdit = z.object({ id: ZId, ...positionFields }).strict();
export type TPositionEdit = z.infer<typeof ZPositionEdit>;

export const ZPositionOption = z.object({ id: ZId, code: z.string(), name: z.string() });
export type TPositionOption = z.infer<typeof ZPositionOption>;

/* Companies (platform administrators only) */

export const COMPANY_STATUS = { active: 1, frozen: 2 } as const;

export const ZCompany = z.object({
  id: ZId,
  name: z.string(),
  code: z.string(),
  status: z.number().int().describe('1 active, 2 frozen'),
  isPlatform: z.boolean(),
  userCount: z.number().int(),
  createTime: ZTimestamp,
  storageQuota: z
    .number()
    .int()
    .nullable()
    .describe(
      'Bytes of files the company may store; null: the default (COMPANY_STORAGE_QUOTA); 0: unlimited',
    ),
  storageUsed: z.number().int().describe('Bytes of files the company stores'),
});
export type TCompany = z.infer<typeof ZCompany>;

export const ZCompanyQuery = ZPageQuery.extend({
  name: z.string().trim().max(100).optional().describe('Substring of name or code'),
  status: z.coerce.number().int().min(1).max(2).optional(),
  column: z.enum(['createTime', 'name', 'code']).default('createTime'),
}).strict();
export type TCompanyQuery = z.infer<typeof ZCompanyQuery>;

const companyCode = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and - only');

export const ZCompanyAdminInput = z
  .object({
    username: ZUsername,
    realname: z.string().trim().min(1).max(100),
    password: z.string().min(PASSWORD_MIN_LENGTH).max(128),
    phone: z
      .string()
      .regex(/^1[3-9]\d{9}$/, 'must be a mobile number')
      .nullable()
      .optional(),
    email: z.email().max(255).nullable().optional(),
  })
  .strict();

export const ZCompanyAdd = z
  .object({
    name: z.string().trim().min(1).max(100),
    code: companyCode,
    admin: ZCompanyAdminInput.describe('The first administrator account of the company'),
  })
  .strict();
export type TCompanyAdd = z.infer<typeof ZCompanyAdd>;

/** Largest per-company storage quota that can be set: 1 PiB. */
export const STORAGE_QUOTA_MAX = 2 ** 50;

export const ZCompanyEdit = z
  .object({
    id: ZId,
    name: z.string().trim().min(1).max(100),
    storageQuota: z
      .number()
      .int()
      .min(0)
      .max(STORAGE_QUOTA_MAX)
      .nullable()
      .optional()
      .describe('Bytes; null: back to the default; 0: unlimited; omitted: unchanged'),
  })
  .strict();
export type TCompanyEdit = z.infer<typeof ZCompanyEdit>;

export const ZCompanyStatus = z
  .object({ id: ZId, status: z.union([z.literal(1), z.literal(2)]) })
  .strict();
export type TCompanyStatus = z.infer<typeof ZCompanyStatus>;

export const ZCompanyAdmin = z.object({
  id: ZId,
  username: z.string(),
  realname: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.number().int(),
});
export type TCompanyAdmin = z.infer<typeof ZCompanyAdmin>;

export const ZDepartMemberPage = pageOf(ZDepartMember);
export const ZDepartRolePage = pageOf(ZDepartRole);
export const ZPositionPage = pageOf(ZPosition);
export const ZCompanyPage = pageOf(ZCompany);
