import {
  MQTT_HOOK_SECRET_HEADER,
  ZErrorEnvelope,
  ZMqttAclRequest,
  ZMqttAuthRequest,
  ZMqttHookResult,
  ZMqttHookSecret,
} from '@blrms/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/http/app-error.js';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import type { GatewayService } from './gateway.service.js';

const tags = ['mqtt'];
/** The hooks answer in the broker's shape, not the API envelope (errors keep the envelope). */
const hookResponses = { 200: ZMqttHookResult, '4xx': ZErrorEnvelope, '5xx': ZErrorEnvelope };

/**
 * The EMQX HTTP authentication and authorization hooks, for an external broker that lets BLRMS
 * decide who connects. They are public routes guarded by the shared secret header instead of a
 * session; the secret is checked before the body is even parsed.
 */
export function mqttHookRoutes(gateway: GatewayService): FastifyPluginAsyncZod {
  return async (app) => {
    const requireSecret = async (req: FastifyRequest) => {
      const given = req.headers[MQTT_HOOK_SECRET_HEADER];
      if (!(await gateway.hookSecretMatches(typeof given === 'string' ? given : undefined))) {
        throw new AppError('mqttHookSecretInvalid', 401);
      }
    };

    app.post(
      '/mqtt/auth',
      {
        config: { public: true },
        onRequest: requireSecret,
        schema: {
          tags,
          summary: 'EMQX authentication hook: a device login (SN + token key)',
          body: ZMqttAuthRequest,
          response: hookResponses,
        },
      },
      async (req) => gateway.hookAuth(req.body),
    );

    app.post(
      '/mqtt/acl',
      {
        config: { public: true },
        onRequest: requireSecret,
        schema: {
          tags,
          summary: 'EMQX authorization hook: may this client publish or subscribe to the topic',
          body: ZMqttAclRequest,
          response: hookResponses,
        },
      },
      async (req) => gateway.hookAcl(req.body),
    );

    app.get(
      '/mqtt/hookSecret',
      {
        // Platform administrators only: checked in the service (no menu row grants it).
        config: { authenticated: true },
        schema: {
          tags,
          summary: 'The shared secret the external broker must send to the hooks',
          querystring: ZNoQuery,
          response: responses(ZMqttHookSecret),
        },
      },
      async (req) => ok(await gateway.hookSecretFor(req.scope)),
    );
  };
}
