import {
  ZAnnouncement,
  ZAnnouncementCreate,
  ZAnnouncementEdit,
  ZAnnouncementPage,
  ZAnnouncementQuery,
  ZAudienceOptions,
  ZIdQuery,
  ZIdsQuery,
  ZListByUser,
  ZMarkReadRequest,
  ZUserAnnouncement,
  ZUserAnnouncementPage,
  ZUserAnnouncementQuery,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { AnnouncementService } from './announcement.service.js';

const tags = ['announcement'];

export function announcementRoutes(announcements: AnnouncementService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/annountCement/list',
      {
        config: { permission: 'system:announcement:list' },
        schema: {
          tags,
          summary: 'Announcements of the current company (administration)',
          querystring: ZAnnouncementQuery,
          response: responses(ZAnnouncementPage),
        },
      },
      async (req) => ok(await announcements.list(req.scope, req.query, req.lang)),
    );

    app.get(
      '/sys/annountCement/audienceOptions',
      {
        config: { permission: 'system:announcement:list' },
        schema: {
          tags,
          summary: 'Users, departments (tree) and roles an announcement can be sent to',
          querystring: ZNoQuery,
          response: responses(ZAudienceOptions),
        },
      },
      async (req) => ok(await announcements.audienceOptions(req.scope, req.lang)),
    );

    app.post(
      '/sys/annountCement/add',
      {
        config: { permission: 'system:announcement:add' },
        schema: {
          tags,
          summary: 'Create a draft announcement',
          body: ZAnnouncementCreate,
          response: responses(ZAnnouncement),
        },
      },
      async (req) => ok(await announcements.add(req.scope, req.body, req.lang)),
    );

    app.put(
      '/sys/annountCement/edit',
      {
        config: { permission: 'system:announcement:edit' },
        schema: {
          tags,
          summary: 'Change a draft announcement',
          body: ZAnnouncementEdit,
          response: responses(ZAnnouncement),
        },
      },
      async (req) => ok(await announcements.edit(req.scope, req.body, req.lang)),
    );

    app.delete(
      '/sys/annountCement/delete',
      {
        config: { permission: 'system:announcement:delete' },
        schema: {
          tags,
          summary: 'Delete an announcement',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await announcements.delete(req.scope, [req.query.id]);
        return ok(null);
      },
    );

    app.delete(
      '/sys/annountCement/deleteBatch',
      {
        config: { permission: 'system:announcement:delete' },
        schema: {
          tags,
          summary: 'Delete announcements',
          querystring: ZIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await announcements.delete(req.scope, [...new Set(req.query.ids)]);
        return ok(null);
      },
    );

    app.get(
      '/sys/annountCement/doReleaseData',
      {
        config: { permission: 'system:announcement:release', operateType: 'release' },
        schema: {
          tags,
          summary: 'Publish a draft to its audience',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await announcements.release(req.scope, req.query.id);
        return ok(null, message(req.lang, 'announcementPublished'));
      },
    );

    app.get(
      '/sys/annountCement/doReovkeData',
      {
        config: { permission: 'system:announcement:revoke', operateType: 'revoke' },
        schema: {
          tags,
          summary: 'Revoke a published announcement',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await announcements.revoke(req.scope, req.query.id);
        return ok(null, message(req.lang, 'announcementRevoked'));
      },
    );

    app.get(
      '/sys/annountCement/listByUser',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: "The caller's unread announcements and system messages, with their counts",
          querystring: ZNoQuery,
          response: responses(ZListByUser),
        },
      },
      async (req) => ok(await announcements.listByUser(req.scope, req.lang)),
    );

    app.get(
      '/sys/annountCement/queryById',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: 'One announcement addressed to the caller',
          querystring: ZIdQuery,
          response: responses(ZUserAnnouncement),
        },
      },
      async (req) => ok(await announcements.queryForUser(req.scope, req.query.id, req.lang)),
    );

    app.get(
      '/sys/sysAnnouncementSend/getMyAnnouncementSend',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: "The caller's announcements, with filters and read state",
          querystring: ZUserAnnouncementQuery,
          response: responses(ZUserAnnouncementPage),
        },
      },
      async (req) => ok(await announcements.myAnnouncements(req.scope, req.query, req.lang)),
    );

    app.put(
      '/sys/sysAnnouncementSend/editByAnntIdAndUserId',
      {
        config: { authenticated: true, operateType: 'read' },
        schema: {
          tags,
          summary: 'Mark one of the caller’s announcements read',
          body: ZMarkReadRequest,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await announcements.markRead(req.scope, req.body.anntId);
        return ok(null);
      },
    );

    app.put(
      '/sys/sysAnnouncementSend/readAll',
      {
        config: { authenticated: true, operateType: 'read' },
        schema: {
          tags,
          summary: 'Mark all of the caller’s announcements read',
          body: z.object({}).strict(),
          response: responses(z.null()),
        },
      },
      async (req) => {
        await announcements.markAllRead(req.scope);
        return ok(null, message(req.lang, 'announcementAllRead'));
      },
    );
  };
}
