// The send statements other features run in their own transactions (bot sends, reminders) and the send's text for
// the benchmarks; the statements themselves are built in send-queries.ts.
export { plainSendStatement, sendSql } from './send-queries.js';
