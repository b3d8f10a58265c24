// The partner error-code catalogue (error-codes.ts) is the one list: the spec's enum PartnerErrorCode, the error
// table of docs/partner.md and the codes the sources produce (throw sites, CRM not-found codes, and shared errors as
// renderPartnerError sends them) must each be exactly that list.
import { documentedCodes, literalCodes, renderedCodes, sharedErrors, sorted, specEnum } from '../../../test/support/error-catalogue.js';
import { partnerErrorCodes } from './error-codes.js';
import { renderPartnerError } from './errors.js';

const catalogue = sorted(partnerErrorCodes);

test('the catalogue lists each code once', () => {
  expect(catalogue).toHaveLength(partnerErrorCodes.length);
});

test('the spec enum PartnerErrorCode is the catalogue', () => {
  expect(sorted(specEnum('partner', 'PartnerErrorCode'))).toEqual(catalogue);
});

test('docs/partner.md documents exactly the catalogue', () => {
  expect(sorted(documentedCodes('docs/partner.md', 'code'))).toEqual(catalogue);
});

test('the partner sources produce exactly the catalogue', () => {
  const thrown = [
    ...literalCodes(['src/partner'], /\w+\(\s*\d+,\s*'([a-z][a-z0-9_]*)'/g),
    ...literalCodes(['src/partner'], /\.(?:notFound|conflict)\(\s*'([a-z][a-z0-9_]*)'/g),
    ...literalCodes(['src/core/crm'], /notFound: '([a-z][a-z0-9_]*)'/g),
  ];
  const { framework, bearer } = sharedErrors();
  const rendered = renderedCodes([...framework, ...bearer], renderPartnerError, (body) => body.error.code);
  expect(sorted([...thrown, ...rendered])).toEqual(catalogue);
});
