// The workspace error-code catalogue (error-codes.ts) is the one list: the spec's enum WorkspaceErrorCode, the error
// table of docs/workspace.md and the codes the sources produce (throw sites, and shared errors as
// renderWorkspaceError names them) must each be exactly that list.
import { documentedCodes, literalCodes, renderedCodes, sharedErrors, sorted, specEnum } from '../../../test/support/error-catalogue.js';
import { workspaceErrorCodes } from './error-codes.js';
import { renderWorkspaceError } from './errors.js';

const catalogue = sorted(workspaceErrorCodes);

test('the catalogue lists each code once', () => {
  expect(catalogue).toHaveLength(workspaceErrorCodes.length);
});

test('the spec enum WorkspaceErrorCode is the catalogue', () => {
  expect(sorted(specEnum('workspace', 'WorkspaceErrorCode'))).toEqual(catalogue);
});

test('docs/workspace.md documents exactly the catalogue', () => {
  expect(sorted(documentedCodes('docs/workspace.md', 'error'))).toEqual(catalogue);
});

test('the workspace sources produce exactly the catalogue', () => {
  const thrown = literalCodes(['src/workspace'], /\w+\(\s*\d+,\s*'([a-z][a-z0-9_]*)'/g);
  const { framework, bearer } = sharedErrors();
  const rendered = renderedCodes([...framework, ...bearer], renderWorkspaceError, (body) => body.error);
  expect(sorted([...thrown, ...rendered])).toEqual(catalogue);
});
