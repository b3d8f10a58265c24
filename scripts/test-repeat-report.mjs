// Reads the jest --json reports of `make test-repeat` and prints each file that failed in any run, with its failed
// tests; exits 1 when there is one, or when a run left no report (it crashed before the end).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const reports = process.argv.slice(2);
const failures = new Map();
let missing = 0;
let files = 0;
for (const [run, path] of reports.entries()) {
  let report;
  try {
    report = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    missing += 1;
    console.log(`test-repeat: no report in ${path}`);
    continue;
  }
  files = Math.max(files, report.testResults.length);
  for (const result of report.testResults) {
    if (result.status === 'passed') continue;
    const file = relative(process.cwd(), result.name);
    const failed = result.assertionResults.filter((a) => a.status === 'failed').map((a) => a.fullName);
    const entry = failures.get(file) ?? { runs: [], tests: new Set() };
    entry.runs.push(run + 1);
    for (const name of failed.length ? failed : [result.message.split('\n')[0] || 'the file did not run']) entry.tests.add(name);
    failures.set(file, entry);
  }
}
for (const [file, { runs, tests }] of failures) {
  console.log(`FAILED ${file} in run(s) ${runs.join(', ')}`);
  for (const name of tests) console.log(`  ${name}`);
}
console.log(`test-repeat: ${reports.length} runs of ${files} files; ${failures.size} file(s) failed at least once`);
process.exit(failures.size > 0 || missing > 0 ? 1 : 0);
