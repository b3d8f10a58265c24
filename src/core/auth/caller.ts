// The authenticated user of a bearer JWT, as every listener sees it after authentication.
import type {} from 'fastify';

/** The authenticated caller, derived only from the verified bearer token and the account row. */
export interface Caller {
  accountId: string;
  moduleCode: string;
  customerAccountId: string;
  platformAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}
