import { afterAll, describe, expect, it } from 'vitest';
import { MosquittoInstance } from './support/mosquitto.js';
import { PostgresInstance } from './support/postgres.js';
import { stopAllOwned } from './support/process.js';
import { RedisInstance } from './support/redis.js';
import { ServerProcess } from './support/server.js';

afterAll(stopAllOwned);

describe('the fault suite’s own services', () => {
  it('starts a server on its own PostgreSQL, Redis and Mosquitto, and removes them all', async () => {
    const pg = await PostgresInstance.create();
    const redis = await RedisInstance.create();
    const mosquitto = await MosquittoInstance.create();
    try {
      const server = await ServerProcess.start({
        env: { DATABASE_URL: pg.url, REDIS_URL: redis.url, MQTT_URL: mosquitto.url },
      });
      try {
        await server.login();
        const reply = await server.call('GET', '/sys/user/list');
        expect(reply.status).toBe(200);
        expect(reply.success).toBe(true);
      } finally {
        await server.remove();
      }
    } finally {
      await Promise.all([pg.remove(), redis.remove(), mosquitto.remove()]);
    }
  });
});
