// The code that answers a missing record of each CRM resource (resources.ts); the partner catalogue lists them.
export const crmNotFoundCodes = [
  'lead_not_found',
  'deal_not_found',
  'contact_not_found',
  'company_not_found',
  'activity_not_found',
  'invoice_not_found',
  'quotation_not_found',
  'payment_not_found',
  'product_not_found',
  'subscription_not_found',
] as const;

export type CrmNotFoundCode = (typeof crmNotFoundCodes)[number];
