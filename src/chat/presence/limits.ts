// The fixed figures of typing and presence (docs/realtime.md "Presence and typing").

/** How long a typing indicator shows after one notice; clients repeat the notice while the user keeps typing. */
export const typingTtlMs = 6_000;

/** A session's presence entry lives this many refresh intervals without a heart-beat before it counts as gone. */
export const presenceTtlIntervals = 3;

/** The shortest interval between two refreshes of one session's entry, whatever heart-beat the client asked for. */
export const presenceMinRefreshMs = 20_000;

/** How long last-seen and the AWAY setting are kept without any session. */
export const presenceKeepMs = 90 * 24 * 3_600_000;

/** Ids one GET /api/v1/presence may ask for. */
export const presenceMaxIds = 100;

/** Presence events reach co-members of rooms up to this size; members of larger rooms ask GET /api/v1/presence. */
export const presenceEventRoomMaxMembers = 1_000;
