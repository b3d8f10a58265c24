// Test files in name order, so that the runner's own test knows which fixture runs after which.
import TestSequencer from '@jest/test-sequencer';

const Base = TestSequencer.default ?? TestSequencer;

export default class ByName extends Base {
  sort(tests) {
    return [...tests].sort((a, b) => a.path.localeCompare(b.path));
  }
}
