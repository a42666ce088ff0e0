import {
  ZCompany,
  ZCompanyAdd,
  ZCompanyAdmin,
  ZCompanyEdit,
  ZCompanyPage,
  ZCompanyQuery,
  ZCompanyStatus,
  ZOrgIdQuery,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { CompanyService } from './company.service.js';

const tags = ['company'];

/** Every route here also checks that the caller is a platform administrator (403 otherwise). */
export function companyRoutes(companies: CompanyService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/company/list',
      {
        config: { permission: 'system:company:list' },
        schema: {
          tags,
          summary: 'Companies (customers), paged: platform administrators only',
          querystring: ZCompanyQuery,
          response: responses(ZCompanyPage),
        },
      },
      async (req) => ok(await companies.list(req.scope, req.query)),
    );

    app.get(
      '/sys/company/queryById',
      {
        config: { permission: 'system:company:list' },
        schema: { tags, querystring: ZOrgIdQuery, response: responses(ZCompany) },
      },
      async (req) => ok(await companies.byId(req.scope, req.query.id)),
    );

    app.get(
      '/sys/company/queryAdmins',
      {
        config: { permission: 'system:company:list' },
        schema: {
          tags,
          summary: "Users holding the company's admin role",
          querystring: ZOrgIdQuery,
          response: responses(z.array(ZCompanyAdmin)),
        },
      },
      async (req) => ok(await companies.admins(req.scope, req.query.id)),
    );

    app.post(
      '/sys/company/add',
      {
        config: { permission: 'system:company:add' },
        schema: {
          tags,
          summary: 'Create a company with its root department, admin role and first administrator',
          body: ZCompanyAdd,
          response: responses(ZCompany),
        },
      },
      async (req) => ok(await companies.add(req.scope, req.body), message(req.lang, 'orgSaved')),
    );

    app.put(
      '/sys/company/edit',
      {
        config: { permission: 'system:company:edit' },
        schema: { tags, body: ZCompanyEdit, response: responses(ZCompany) },
      },
      async (req) => ok(await companies.edit(req.scope, req.body), message(req.lang, 'orgSaved')),
    );

    app.put(
      '/sys/company/frozen',
      {
        config: { permission: 'system:company:freeze' },
        schema: {
          tags,
          summary: "Freeze (2) or unfreeze (1) a company; freezing ends its users' sessions",
          body: ZCompanyStatus,
          response: responses(ZCompany),
        },
      },
      async (req) =>
        ok(await companies.setStatus(req.scope, req.body), message(req.lang, 'orgSaved')),
    );
  };
}
