import { AppError } from '../http/app-error.js';

/**
 * One import at a time per company (users and devices alike): an import holds its upload, its
 * rows and a transaction, so a company cannot multiply that by sending files in parallel. The
 * slots live in this process; each server node limits its own imports.
 */
const running = new Set<string>();

/** Runs the import, or refuses with 429 while another import of the company is running. */
export async function withImportSlot<T>(companyId: string, run: () => Promise<T>): Promise<T> {
  if (running.has(companyId)) throw new AppError('importBusy', 429);
  running.add(companyId);
  try {
    return await run();
  } finally {
    running.delete(companyId);
  }
}
