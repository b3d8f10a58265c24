// Convention B plans and their rate limits, per workspace and shared by every node. A workspace's plan is
// workspaces.svc_plan (independent of the partner plan in workspaces.plan); enterprise limits come from the
// workspace's contract columns (svc_rate_per_hour, svc_rate_per_minute), each falling back to business's.

export type SvcPlan = 'free' | 'pro' | 'business' | 'enterprise';
export const svcPlans: readonly SvcPlan[] = ['free', 'pro', 'business', 'enterprise'];

export interface RateLimits {
  perHour: number;
  /** The burst limit. */
  perMinute: number;
}

export const planLimits: Record<Exclude<SvcPlan, 'enterprise'>, RateLimits> = {
  free: { perHour: 100, perMinute: 20 },
  pro: { perHour: 1000, perMinute: 100 },
  business: { perHour: 10_000, perMinute: 500 },
};

export function isSvcPlan(value: string): value is SvcPlan {
  return (svcPlans as readonly string[]).includes(value);
}

export function limitsOf(plan: string, contractPerHour: number | null, contractPerMinute: number | null): RateLimits {
  if (plan === 'enterprise') {
    return { perHour: contractPerHour ?? planLimits.business.perHour, perMinute: contractPerMinute ?? planLimits.business.perMinute };
  }
  return planLimits[plan as Exclude<SvcPlan, 'enterprise'>] ?? planLimits.free;
}
