export * from './common.js';
export * from './auth.js';
export * from './permission.js';
export * from './dict.js';
export * from './sys.js';
export * from './device.js';
export * from './data-rule.js';
export * from './organisation.js';
