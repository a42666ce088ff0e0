import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { unusablePorts, type PortClaim } from './platform/ports.js';

/**
 * SIGTERM to exit, at most: Docker kills the process 10 s after SIGTERM (Kubernetes after 30 s),
 * and what the shutdown does (devices set offline, the operation log written) must happen before.
 */
const SHUTDOWN_DEADLINE_MS = 8000;

/** What keeps the process alive, by kind (`TCPSocketWrap: 2`, ...), for the deadline's log line. */
function openResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  const claims: PortClaim[] = [
    {
      variable: 'PORT',
      port: config.port,
      host: config.host,
      hint: 'stop that program or choose another port with PORT=<port>',
    },
  ];
  if (!config.mqttUrl && config.mqttPort !== 0)
    claims.push({
      variable: 'MQTT_PORT',
      port: config.mqttPort,
      host: config.host,
      hint: 'is a broker (Mosquitto) running here? Choose another port with MQTT_PORT=<port>, use that broker with MQTT_URL=mqtt://127.0.0.1:<port>, or MQTT_PORT=0 to run without one',
    });
  const problems = await unusablePorts(claims);
  if (problems.length > 0) {
    process.stderr.write(`Cannot start: nothing was changed.\n${problems.join('\n')}\n`);
    process.exit(1);
  }

  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A request that never finishes (a stalled upload, a hung dependency) must not keep the
    // process past its orchestrator's patience: it would be killed before it could say why.
    setTimeout(() => {
      app.log.error(
        { signal, open: openResources() },
        'shutdown deadline passed: exiting with work still open',
      );
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // Devices connect to the external broker when there is one, else to the embedded one.
  if (config.mqttUrl) await app.deviceGateway.startExternal(config.mqttUrl);
  else if (config.mqttPort !== 0)
    await app.deviceGateway.startEmbedded(config.mqttPort, config.host);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
