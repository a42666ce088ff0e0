/** The rules live in the contracts, so that the console's strength meter applies the same ones. */
export { weakPasswordReason } from '@blrms/contracts';
