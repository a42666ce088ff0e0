import {
  ZCheckByCodeQuery,
  ZCheckRule,
  ZCheckRuleEdit,
  ZCheckRuleInput,
  ZCheckRuleListQuery,
  ZCheckRulePage,
  ZId,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { CheckRuleService } from './check-rule.service.js';

const tags = ['checkRule'];
const ZIdQuery = z.object({ id: ZId, _t: z.string().optional() }).strict();
const ZIdsQuery = z
  .object({
    ids: z
      .string()
      .min(1)
      .max(33 * 1000)
      .transform((s) => s.split(','))
      .pipe(z.array(ZId).min(1).max(1000)),
  })
  .strict();

export function checkRuleRoutes(rules: CheckRuleService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/checkRule/checkByCode',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: 'Check a value against a rule; an empty value passes, else the rule message',
          querystring: ZCheckByCodeQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await rules.check(req.query, req.lang);
        return ok(null, message(req.lang, 'checkRulePassed'));
      },
    );

    app.get(
      '/sys/checkRule/list',
      {
        config: { permission: 'system:checkrule:list' },
        schema: {
          tags,
          summary: 'Check rules, paged',
          querystring: ZCheckRuleListQuery,
          response: responses(ZCheckRulePage),
        },
      },
      async (req) => ok(await rules.list(req.query)),
    );

    app.get(
      '/sys/checkRule/queryById',
      {
        config: { permission: 'system:checkrule:list' },
        schema: {
          tags,
          summary: 'One check rule',
          querystring: ZIdQuery,
          response: responses(ZCheckRule),
        },
      },
      async (req) => ok(await rules.get(req.query.id)),
    );

    app.post(
      '/sys/checkRule/add',
      {
        config: { permission: 'system:checkrule:add' },
        schema: {
          tags,
          summary: 'Add a check rule',
          body: ZCheckRuleInput,
          response: responses(ZCheckRule),
        },
      },
      async (req) => ok(await rules.add(req.body), message(req.lang, 'checkRuleSaved')),
    );

    app.put(
      '/sys/checkRule/edit',
      {
        config: { permission: 'system:checkrule:edit' },
        schema: {
          tags,
          summary: 'Edit a check rule',
          body: ZCheckRuleEdit,
          response: responses(ZCheckRule),
        },
      },
      async (req) => ok(await rules.edit(req.body), message(req.lang, 'checkRuleSaved')),
    );

    app.delete(
      '/sys/checkRule/delete',
      {
        config: { permission: 'system:checkrule:delete' },
        schema: {
          tags,
          summary: 'Delete a check rule',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await rules.delete([req.query.id]);
        return ok(null, message(req.lang, 'checkRuleDeleted'));
      },
    );

    app.delete(
      '/sys/checkRule/deleteBatch',
      {
        config: { permission: 'system:checkrule:delete' },
        schema: {
          tags,
          summary: 'Delete check rules by comma-separated ids',
          querystring: ZIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await rules.delete(req.query.ids);
        return ok(null, message(req.lang, 'checkRuleDeleted'));
      },
    );
  };
}
