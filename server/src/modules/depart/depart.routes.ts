import {
  ZDepartAdd,
  ZDepartEdit,
  ZDepartIdQuery,
  ZDepartMember,
  ZDepartMemberPage,
  ZDepartMemberQuery,
  ZDepartMemberRemoveQuery,
  ZDepartMembersAdd,
  ZDepartRole,
  ZDepartRoleAdd,
  ZDepartRoleEdit,
  ZDepartRolePage,
  ZDepartRoleQuery,
  ZDepartSearchQuery,
  ZDepartTreeNode,
  ZGrantTree,
  ZId,
  ZMemberCandidateQuery,
  ZOrgIdQuery,
  ZOrgIdsQuery,
  ZRoleIdQuery,
  ZSaveDepartPermission,
  ZSaveDeptRolePermission,
  ZSaveDeptRoleUsers,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { DepartService } from './depart.service.js';

const tags = ['depart'];
const LIST = 'account:depart:list';
const ADD = 'account:depart:add';
const EDIT = 'account:depart:edit';
const DELETE = 'account:depart:delete';
const AUTHORIZE = 'account:depart:authorize';
const MEMBER = 'account:depart:member';

export function departRoutes(departs: DepartService): FastifyPluginAsyncZod {
  return async (app) => {
    // The tree is read by every form that offers a department (users, selects), so any signed-in
    // user of the company may read it; it holds names and codes only.
    app.get(
      '/sys/sysDepart/queryTreeList',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: "The current company's department tree",
          querystring: ZNoQuery,
          response: responses(z.array(ZDepartTreeNode)),
        },
      },
      async (req) => ok(await departs.tree(req.scope, req.lang)),
    );

    app.get(
      '/sys/sysDepart/queryIdTree',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: 'The department tree for tree selects (key/value/title)',
          querystring: ZNoQuery,
          response: responses(z.array(ZDepartTreeNode)),
        },
      },
      async (req) => ok(await departs.tree(req.scope, req.lang)),
    );

    app.get(
      '/sys/sysDepart/queryMyDeptTreeList',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: "The caller's departments and everything below them",
          querystring: ZNoQuery,
          response: responses(z.array(ZDepartTreeNode)),
        },
      },
      async (req) => ok(await departs.myTree(req.scope, req.lang)),
    );

    app.get(
      '/sys/sysDepart/searchBy',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'Departments whose name contains the keyword',
          querystring: ZDepartSearchQuery,
          response: responses(z.array(ZDepartTreeNode)),
        },
      },
      async (req) => ok(await departs.search(req.scope, req.query.keyWord, req.lang)),
    );

    app.post(
      '/sys/sysDepart/add',
      {
        config: { permission: ADD },
        schema: {
          tags,
          summary: 'Add a department; its org code follows its parent',
          body: ZDepartAdd,
          response: responses(ZDepartTreeNode),
        },
      },
      async (req) =>
        ok(await departs.add(req.scope, req.body, req.lang), message(req.lang, 'orgSaved')),
    );

    app.put(
      '/sys/sysDepart/edit',
      {
        config: { permission: EDIT },
        schema: { tags, body: ZDepartEdit, response: responses(ZDepartTreeNode) },
      },
      async (req) =>
        ok(await departs.edit(req.scope, req.body, req.lang), message(req.lang, 'orgSaved')),
    );

    app.delete(
      '/sys/sysDepart/delete',
      {
        config: { permission: DELETE },
        schema: {
          tags,
          summary: 'Delete a department without sub-departments or members (409 otherwise)',
          querystring: ZOrgIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await departs.delete(req.scope, req.query.id);
        return ok(null, message(req.lang, 'orgDeleted'));
      },
    );

    app.get(
      '/sys/sysDepart/departUserList',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'Members of a department, paged',
          querystring: ZDepartMemberQuery,
          response: responses(ZDepartMemberPage),
        },
      },
      async (req) => ok(await departs.members(req.scope, req.query)),
    );

    app.get(
      '/sys/sysDepart/memberCandidates',
      {
        config: { permission: MEMBER },
        schema: {
          tags,
          summary: 'Users of the company not yet in the department (at most 50)',
          querystring: ZMemberCandidateQuery,
          response: responses(z.array(ZDepartMember)),
        },
      },
      async (req) => ok(await departs.candidates(req.scope, req.query)),
    );

    app.post(
      '/sys/sysDepart/editSysDepartWithUser',
      {
        config: { permission: MEMBER },
        schema: {
          tags,
          summary: "Add users of the company to a department's members",
          body: ZDepartMembersAdd,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await departs.addMembers(req.scope, req.body);
        return ok(null, message(req.lang, 'orgSaved'));
      },
    );

    app.delete(
      '/sys/sysDepart/deleteUserInDepartBatch',
      {
        config: { permission: MEMBER },
        schema: {
          tags,
          summary: 'Remove members from a department (and from its department roles)',
          querystring: ZDepartMemberRemoveQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await departs.removeMembers(req.scope, req.query.depId, req.query.userIds.split(','));
        return ok(null, message(req.lang, 'orgDeleted'));
      },
    );

    app.get(
      '/sys/sysDepartPermission/queryTreeListForDepart',
      {
        config: { permission: AUTHORIZE },
        schema: {
          tags,
          summary: 'Menus and buttons the caller may grant to a department (their own)',
          querystring: ZDepartIdQuery,
          response: responses(ZGrantTree),
        },
      },
      async (req) => ok(await departs.grantableTree(req.scope, req.query.departId, req.lang)),
    );

    app.get(
      '/sys/permission/queryDepartPermission',
      {
        config: { permission: AUTHORIZE },
        schema: {
          tags,
          summary: "A department's granted permission ids: the ceiling of its roles",
          querystring: ZDepartIdQuery,
          response: responses(z.array(ZId)),
        },
      },
      async (req) => ok(await departs.departPermissionIds(req.scope, req.query.departId)),
    );

    app.post(
      '/sys/permission/saveDepartPermission',
      {
        config: { permission: AUTHORIZE },
        schema: {
          tags,
          summary: "Replace a department's grants; its roles lose what falls outside",
          body: ZSaveDepartPermission,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await departs.saveDepartPermission(req.scope, req.body);
        return ok(null, message(req.lang, 'orgSaved'));
      },
    );

    app.get(
      '/sys/sysDepartRole/list',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'Roles of a department, paged',
          querystring: ZDepartRoleQuery,
          response: responses(ZDepartRolePage),
        },
      },
      async (req) => ok(await departs.roles(req.scope, req.query)),
    );

    app.post(
      '/sys/sysDepartRole/add',
      {
        config: { permission: AUTHORIZE },
        schema: { tags, body: ZDepartRoleAdd, response: responses(ZDepartRole) },
      },
      async (req) => ok(await departs.addRole(req.scope, req.body), message(req.lang, 'orgSaved')),
    );

    app.put(
      '/sys/sysDepartRole/edit',
      {
        config: { permission: AUTHORIZE },
        schema: { tags, body: ZDepartRoleEdit, response: responses(ZDepartRole) },
      },
      async (req) => ok(await departs.editRole(req.scope, req.body), message(req.lang, 'orgSaved')),
    );

    app.delete(
      '/sys/sysDepartRole/delete',
      {
        config: { permission: AUTHORIZE },
        schema: { tags, querystring: ZOrgIdQuery, response: responses(z.null()) },
      },
      async (req) => {
        await departs.deleteRoles(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'orgDeleted'));
      },
    );

    app.delete(
      '/sys/sysDepartRole/deleteBatch',
      {
        config: { permission: AUTHORIZE },
        schema: { tags, querystring: ZOrgIdsQuery, response: responses(z.null()) },
      },
      async (req) => {
        await departs.deleteRoles(req.scope, req.query.ids.split(','));
        return ok(null, message(req.lang, 'orgDeleted'));
      },
    );

    app.get(
      '/sys/sysDepartRole/queryRoleUsers',
      {
        config: { permission: AUTHORIZE },
        schema: {
          tags,
          summary: 'Ids of the users holding a department role',
          querystring: ZRoleIdQuery,
          response: responses(z.array(ZId)),
        },
      },
      async (req) => ok(await departs.roleUserIds(req.scope, req.query.roleId)),
    );

    app.post(
      '/sys/sysDepartRole/saveRoleUsers',
      {
        config: { permission: AUTHORIZE },
        schema: {
          tags,
          summary: "Replace a department role's users (members of its department only)",
          body: ZSaveDeptRoleUsers,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await departs.saveRoleUsers(req.scope, req.body);
        return ok(null, message(req.lang, 'orgSaved'));
      },
    );

    app.get(
      '/sys/sysDepartPermission/queryTreeListForDeptRole',
      {
        config: { permission: AUTHORIZE },
        schema: {
          tags,
          summary: "The department's grants as a tree: what its roles may be given",
          querystring: ZDepartIdQuery,
          response: responses(ZGrantTree),
        },
      },
      async (req) => ok(await departs.ceilingTree(req.scope, req.query.departId, req.lang)),
    );

    app.get(
      '/sys/sysDepartPermission/queryDeptRolePermission',
      {
        config: { permission: AUTHORIZE },
        schema: {
          tags,
          summary: "A department role's granted permission ids",
          querystring: ZRoleIdQuery,
          response: responses(z.array(ZId)),
        },
      },
      async (req) => ok(await departs.rolePermissionIds(req.scope, req.query.roleId)),
    );

    app.post(
      '/sys/sysDepartPermission/saveDeptRolePermission',
      {
        config: { permission: AUTHORIZE },
        schema: {
          tags,
          summary: "Replace a department role's grants, within its department's (403 beyond)",
          body: ZSaveDeptRolePermission,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await departs.saveRolePermission(req.scope, req.body);
        return ok(null, message(req.lang, 'orgSaved'));
      },
    );
  };
}
