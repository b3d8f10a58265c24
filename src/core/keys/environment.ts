/** The environment an API key (partner or workspace) belongs to; records and keys of one environment never mix. */
export type KeyEnvironment = 'live' | 'test' | 'dev';
export const keyEnvironments: KeyEnvironment[] = ['live', 'test', 'dev'];
