import { isInvalidName, resolveOutbound, type HostLookup } from './resolve.js';

describe('resolveOutbound', () => {
  const publicAddress: HostLookup = async () => [{ address: '93.184.215.14', family: 4 }];

  it('answers ENOTFOUND for names under invalid. without asking the resolver', async () => {
    const asked: string[] = [];
    const lookup: HostLookup = async (host) => {
      asked.push(host);
      return [{ address: '93.184.215.14', family: 4 }];
    };
    for (const host of ['hooks.example.invalid', 'INVALID', 'a.b.Invalid.']) {
      await expect(resolveOutbound(host, false, 1_000, lookup)).rejects.toMatchObject({ code: 'ENOTFOUND' });
    }
    expect(asked).toEqual([]);
  });

  it('still resolves names that only contain "invalid"', async () => {
    expect(isInvalidName('invalid.example.com')).toBe(false);
    expect(isInvalidName('notinvalid')).toBe(false);
    await expect(resolveOutbound('invalid.example.com', false, 1_000, publicAddress)).resolves.toEqual({
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('refuses a name that resolves to a loopback address', async () => {
    const loopback: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
    await expect(resolveOutbound('internal.example.com', false, 1_000, loopback)).rejects.toMatchObject({ code: 'EADDRNOTALLOWED' });
  });
});
