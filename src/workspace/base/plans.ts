// The plan catalogue lives in the core, where platform administration (the chat service's admin surface) reads it too.
export * from '../../core/workspaces/svc-plans.js';
