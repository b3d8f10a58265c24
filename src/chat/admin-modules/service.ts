import { createHash, createPublicKey } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { newId } from '../../platform/ids.js';
import { importVerifyKey } from '../../core/auth/key-strength.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { keyCustomers } from './queries.js';
import { CustomerKeyEntity, ModuleEntity, type CustomerKey, type Module } from '../../core/modules/entities.js';

export interface ModuleView {
  code: string;
  name: string;
  customers: string[];
  createdAt: string;
}

export interface CustomerKeyView {
  id: string;
  moduleCode: string;
  customerAccountId: string;
  kid: string;
  algorithm: 'ES256' | 'RS256' | 'EdDSA';
  fingerprint: string;
  createdAt: string;
}

const keyView = (k: CustomerKey): CustomerKeyView => ({
  id: k.id,
  moduleCode: k.moduleCode,
  customerAccountId: k.customerAccountId,
  kid: k.kid,
  algorithm: k.algorithm as CustomerKeyView['algorithm'],
  fingerprint: k.fingerprint,
  createdAt: k.createdAt.toISOString(),
});

export class ModuleService {
  constructor(private readonly deps: ChatDeps) {}

  async list(): Promise<ModuleView[]> {
    const em = this.deps.orm.em.fork();
    const modules = await em.find(ModuleEntity, {}, { orderBy: { code: 'asc' } });
    const customers = await keyCustomers(this.deps.sql);
    return modules.map((m) => ({
      code: m.code,
      name: m.name,
      customers: customers.filter((c) => c.module_code === m.code).map((c) => c.customer_account_id),
      createdAt: m.createdAt.toISOString(),
    }));
  }

  async create(code: string, name: string): Promise<ModuleView> {
    const em = this.deps.orm.em.fork();
    const module = em.create(ModuleEntity, { code, name, createdAt: this.deps.clock.now() });
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException)
        throw chatErrors.conflict('module_exists', `A module with code "${code}" already exists.`);
      throw err;
    }
    return { code: module.code, name: module.name, customers: [], createdAt: module.createdAt.toISOString() };
  }

  async requireModule(code: string): Promise<Module> {
    const module = await this.deps.orm.em.fork().findOne(ModuleEntity, { code });
    if (!module) throw chatErrors.notFound(`Module "${code}"`, 'module_not_found');
    return module;
  }

  async listKeys(code: string, customerAccountId: string): Promise<CustomerKeyView[]> {
    await this.requireModule(code);
    const keys = await this.deps.orm.em
      .fork()
      .find(CustomerKeyEntity, { moduleCode: code, customerAccountId }, { orderBy: { createdAt: 'asc' } });
    return keys.map(keyView);
  }

  async registerKey(
    code: string,
    customerAccountId: string,
    input: { kid?: string; algorithm: CustomerKeyView['algorithm']; publicKeyPem: string },
  ): Promise<CustomerKeyView> {
    await this.requireModule(code);
    let der: Buffer;
    try {
      der = createPublicKey(input.publicKeyPem).export({ type: 'spki', format: 'der' });
    } catch {
      throw chatErrors.invalid('body.publicKeyPem', `must be a PEM SubjectPublicKeyInfo public key usable with ${input.algorithm}`);
    }
    const imported = await importVerifyKey(input.publicKeyPem, input.algorithm);
    if ('unusable' in imported) throw chatErrors.invalid('body.publicKeyPem', imported.unusable);
    const fingerprint = createHash('sha256').update(der).digest('hex');
    const em = this.deps.orm.em.fork();
    const key = em.create(CustomerKeyEntity, {
      id: newId(),
      moduleCode: code,
      customerAccountId,
      kid: input.kid ?? fingerprint.slice(0, 16),
      algorithm: input.algorithm,
      publicKeyPem: input.publicKeyPem,
      fingerprint,
      createdAt: this.deps.clock.now(),
    });
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException)
        throw chatErrors.conflict('key_exists', `Key id "${key.kid}" is already registered for this customer.`);
      throw err;
    }
    await this.deps.verifyKeys.invalidate(code, customerAccountId);
    return keyView(key);
  }

  async refreshKeys(code: string, customerAccountId: string): Promise<void> {
    await this.requireModule(code);
    await this.deps.verifyKeys.invalidate(code, customerAccountId);
  }
}
