export * from './args.js';
export * from './device-agent.js';
export * from './device-models.js';
export * from './fleet.js';
export * from './fleet-report.js';
export * from './mqtt-connection.js';
export * from './timer-wheel.js';
