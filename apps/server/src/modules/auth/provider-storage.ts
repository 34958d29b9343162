import type { Kysely } from 'kysely';
import type { Adapter } from 'oidc-provider';
import type { Database } from '../../db/schema';
import {
  consumeProviderRecord,
  deleteExpiredProviderRecords,
  deleteProviderRecord,
  deleteProviderRecordsOfGrant,
  findProviderRecord,
  upsertProviderRecord,
} from './provider-storage.repository';

/** Expired rows are unreadable at once (reads filter on expiry); they are deleted at most this often. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * oidc-provider's storage over our own table, so sessions, grants, codes, tokens and interactions
 * survive a restart and are seen by every process behind a load balancer. The contract is that of
 * oidc-provider's memory adapter (lib/adapters/memory_adapter.js).
 */
export function databaseAdapterFactory(db: Kysely<Database>): (model: string) => Adapter {
  let nextPurgeAt = Date.now() + PURGE_INTERVAL_MS;
  const purgeWhenDue = async () => {
    if (Date.now() < nextPurgeAt) return;
    nextPurgeAt = Date.now() + PURGE_INTERVAL_MS;
    await deleteExpiredProviderRecords(db);
  };

  return (model) => ({
    upsert: async (id, payload, expiresIn) => {
      await upsertProviderRecord(db, { model, id }, payload, expiresIn);
      await purgeWhenDue();
    },
    find: (id) => findProviderRecord(db, model, 'id', id),
    findByUid: (uid) => findProviderRecord(db, model, 'uid', uid),
    findByUserCode: (userCode) => findProviderRecord(db, model, 'user_code', userCode),
    consume: (id) => consumeProviderRecord(db, { model, id }),
    destroy: (id) => deleteProviderRecord(db, { model, id }),
    revokeByGrantId: (grantId) => deleteProviderRecordsOfGrant(db, model, grantId),
  });
}
