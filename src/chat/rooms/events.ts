// The chat's event writer and audiences live in src/chat/events/emit.ts; this path stays for the features that
// still import them from here. Its `emit` takes any topic string: callers that pass a topic computed as a plain string
// move to the typed `emit` of src/chat/events/emit.ts by typing that value as a ChatTopic.
import type { Queryable } from '../../platform/db/queryable.js';
import { emit as emitChatEvent, type Audience } from '../events/emit.js';
import type { ChatTopic, EventFields } from '../events/topics.js';

export { accountsAudience, roomAudience, type Audience } from '../events/emit.js';

export async function emit(db: Queryable, topic: string, fields: Record<string, unknown>, audience: Audience): Promise<void> {
  await emitChatEvent(db, topic as ChatTopic, fields as EventFields<ChatTopic>, audience);
}
