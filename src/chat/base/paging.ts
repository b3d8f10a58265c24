// The page every chat list answers: its items, whether more follow and the signed cursor to ask for them.
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string | null;
}
