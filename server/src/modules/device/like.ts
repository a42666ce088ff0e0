export { containing } from '../../platform/db/like.js';
