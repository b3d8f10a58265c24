// The plan catalogue, with the ids the spec names (free, team, business, enterprise). External API access
// (API keys) comes with a plan that includes the api_keys or the webhooks module.

export type PlanModule = 'api_keys' | 'webhooks' | 'inbox' | 'reports';

export interface PlanInfo {
  id: string;
  name: string;
  modules: PlanModule[];
}

export const plans: PlanInfo[] = [
  { id: 'free', name: 'Free', modules: [] },
  { id: 'team', name: 'Team', modules: ['inbox', 'reports', 'webhooks'] },
  { id: 'business', name: 'Business', modules: ['inbox', 'reports', 'webhooks', 'api_keys'] },
  { id: 'enterprise', name: 'Enterprise', modules: ['inbox', 'reports', 'webhooks', 'api_keys'] },
];

export const defaultPlan = 'free';

export function planById(id: string): PlanInfo | undefined {
  return plans.find((p) => p.id === id);
}

export function hasExternalApi(planId: string): boolean {
  const modules = planById(planId)?.modules ?? [];
  return modules.includes('api_keys') || modules.includes('webhooks');
}
