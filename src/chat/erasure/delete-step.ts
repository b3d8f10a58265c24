// Delete mode: the account's messages are deleted for good (not yet available on this branch).
import type { ErasureDeps } from './deps.js';

export async function deleteStep(_deps: ErasureDeps, _jobId: string, _accountId: string): Promise<void> {
  throw new Error('delete mode is not available yet');
}
