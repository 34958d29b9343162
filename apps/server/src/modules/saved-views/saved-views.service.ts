import { SAVED_VIEWS_PER_USER_MAX, ZSavedViewState, type SavedView, type SavedViewState } from '@ps/domain';
import { AppError } from '../../lib/errors';
import type { AccessScope } from '../../lib/access';
import type { SavedViewRow, SavedViewsRepository } from './saved-views.repository';

/** PostgreSQL's unique_violation: two saves of one name raced past the check. */
const UNIQUE_VIOLATION = '23505';

const notFound = () => AppError.notFound('Saved view not found');
const nameTaken = (name: string) => new AppError('CONFLICT', `You already have a saved view named "${name}"`);

function toView(row: SavedViewRow): SavedView {
  // A view saved by an older version may miss a newer field: it opens with that field's default.
  const state = ZSavedViewState.safeParse(row.state);
  return {
    id: row.id,
    name: row.name,
    state: state.success ? state.data : FALLBACK_STATE,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const FALLBACK_STATE: SavedViewState = {
  layout: 'table',
  viewLevel: 'category',
  drillDown: 'none',
  bu: [],
  pf: [],
  region: [],
  search: '',
  sort: null,
  pageSize: 100,
  hiddenColumns: [],
};

async function uniqueOr<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION) throw nameTaken(name);
    throw error;
  }
}

/**
 * Saved grid views: each user lists, opens, renames and deletes only their own. Another user's id
 * is not found, as an unknown id is (ADR 0002: a caller cannot probe which ids exist).
 */
export class SavedViewsService {
  constructor(private readonly views: SavedViewsRepository) {}

  async list(scope: AccessScope): Promise<SavedView[]> {
    return (await this.views.list(scope.userId)).map(toView);
  }

  async create(scope: AccessScope, input: { name: string; state: SavedViewState }): Promise<SavedView> {
    if (await this.views.findByName(scope.userId, input.name)) throw nameTaken(input.name);
    if ((await this.views.count(scope.userId)) >= SAVED_VIEWS_PER_USER_MAX)
      throw new AppError(
        'CONFLICT',
        `You have ${SAVED_VIEWS_PER_USER_MAX} saved views, the most one user keeps: delete one first`,
      );
    return toView(await uniqueOr(input.name, () => this.views.insert(scope.userId, input.name, input.state)));
  }

  async update(
    scope: AccessScope,
    id: number,
    change: { name?: string | undefined; state?: SavedViewState | undefined },
  ): Promise<SavedView> {
    if (change.name !== undefined) {
      const same = await this.views.findByName(scope.userId, change.name);
      if (same && same.id !== id) throw nameTaken(change.name);
    }
    const row = await uniqueOr(change.name ?? '', () => this.views.update(scope.userId, id, change));
    if (!row) throw notFound();
    return toView(row);
  }

  async remove(scope: AccessScope, id: number): Promise<{ id: number }> {
    if (!(await this.views.remove(scope.userId, id))) throw notFound();
    return { id };
  }
}
