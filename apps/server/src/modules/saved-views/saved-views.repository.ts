import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, SavedViewsTable } from '../../db/schema';

export type SavedViewRow = Selectable<SavedViewsTable>;

/** Every query of the saved views, each bound to the owner: no query reaches another user's rows. */
export class SavedViewsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(userId: string): Promise<SavedViewRow[]> {
    return this.db
      .selectFrom('saved_views')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .execute();
  }

  async count(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('saved_views')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The user's view of that name, whatever its case (names are unique per user so). */
  findByName(userId: string, name: string): Promise<SavedViewRow | undefined> {
    return this.db
      .selectFrom('saved_views')
      .selectAll()
      .where('user_id', '=', userId)
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst();
  }

  insert(userId: string, name: string, state: object): Promise<SavedViewRow> {
    return this.db
      .insertInto('saved_views')
      .values({ user_id: userId, name, state: JSON.stringify(state) })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(
    userId: string,
    id: number,
    change: { name?: string | undefined; state?: object | undefined },
  ): Promise<SavedViewRow | undefined> {
    return this.db
      .updateTable('saved_views')
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.state !== undefined ? { state: JSON.stringify(change.state) } : {}),
        updated_at: sql`now()`,
      })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async remove(userId: string, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('saved_views')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
