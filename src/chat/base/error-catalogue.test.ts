// The chat error-code catalogue (error-codes.ts) is the one list: the spec's enum ChatErrorCode, the tables of
// docs/errors.md and the codes the sources produce (throw sites, and shared errors as renderChatError sends them)
// must each be exactly that list.
import { documentedCodes, literalCodes, renderedCodes, sharedErrors, sorted, specEnum } from '../../../test/support/error-catalogue.js';
import { chatErrorCodes } from './error-codes.js';
import { renderChatError } from './errors.js';

const catalogue = sorted(chatErrorCodes);

test('the catalogue lists each code once', () => {
  expect(catalogue).toHaveLength(chatErrorCodes.length);
});

test('the spec enum ChatErrorCode is the catalogue', () => {
  expect(sorted(specEnum('chat', 'Envelope.ChatErrorCode'))).toEqual(catalogue);
});

test('docs/errors.md documents exactly the catalogue', () => {
  expect(sorted(documentedCodes('docs/errors.md', 'code'))).toEqual(catalogue);
});

test('the chat sources produce exactly the catalogue', () => {
  // The Bot API (bots/api) has its own envelope without codes.
  const skip = ['src/chat/bots/api'];
  const thrown = [
    ...literalCodes(['src/chat', 'src/core/auth'], /\w+\(\s*\d+,\s*'([a-z][a-z0-9_]*)'/g, skip),
    ...literalCodes(['src/chat'], /\.notFound\([^()]*?,\s*'([a-z][a-z0-9_]*)'\)/g, skip),
    ...literalCodes(['src/chat'], /\.conflict\(\s*'([a-z][a-z0-9_]*)'/g, skip),
  ];
  const { framework, bearer } = sharedErrors();
  const rendered = renderedCodes([...framework, ...bearer], renderChatError, (body) => body.error.code);
  expect(sorted([...thrown, ...rendered])).toEqual(catalogue);
});
