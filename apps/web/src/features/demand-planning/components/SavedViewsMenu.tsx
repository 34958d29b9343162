import { SAVED_VIEW_NAME_MAX, type SavedView, type SavedViewState } from '@ps/domain';
import { BookmarkIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/i18n/error-text';
import type { useSavedViews } from '../hooks/useSavedViews';
import { viewNameProblem, type ViewNameProblem } from '../utils/column-choice';

const PROBLEM_KEYS: Record<ViewNameProblem, string> = {
  empty: 'planning:views.problem.empty',
  tooLong: 'planning:views.problem.tooLong',
  taken: 'planning:views.problem.taken',
};

type SavedViewsMenuProps = {
  saved: ReturnType<typeof useSavedViews>;
  activeViewId: number | null;
  /** What "Save view as…" stores: the grid as it is now. */
  currentState: () => SavedViewState;
  onOpen: (view: SavedView) => void;
  /** In edit mode the view stays as it is until the edits are saved or discarded. */
  isDisabled: boolean;
};

/** A name field that says what is wrong with the name before the server is asked. */
function NameForm({
  initial,
  views,
  ownId,
  submitLabel,
  isBusy,
  onSubmit,
  onCancel,
}: {
  initial: string;
  views: readonly SavedView[];
  ownId?: number;
  submitLabel: string;
  isBusy: boolean;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [isTouched, setTouched] = useState(false);
  const problem = viewNameProblem(name, views, ownId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!problem) onSubmit(name.trim());
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2">
      <label htmlFor="saved-view-name" className="text-sm font-medium">
        {t('planning:views.name')}
      </label>
      <input
        id="saved-view-name"
        autoFocus
        value={name}
        maxLength={SAVED_VIEW_NAME_MAX + 20}
        onChange={(event) => {
          setName(event.target.value);
          setTouched(true);
        }}
        aria-invalid={isTouched && problem !== null}
        aria-describedby="saved-view-name-problem"
        className="h-9 rounded-md border border-input bg-background px-2 text-sm"
      />
      <p id="saved-view-name-problem" className="min-h-5 text-xs text-destructive" role="status">
        {isTouched && problem ? t(PROBLEM_KEYS[problem], { max: SAVED_VIEW_NAME_MAX }) : ''}
      </p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {t('planning:views.cancel')}
        </Button>
        <Button type="submit" disabled={isBusy || (isTouched && problem !== null)}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The grid's Views menu: save the grid as a named view, open one, rename or delete them. */
export function SavedViewsMenu({
  saved,
  activeViewId,
  currentState,
  onOpen,
  isDisabled,
}: SavedViewsMenuProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'save' | 'manage' | null>(null);
  const [renaming, setRenaming] = useState<SavedView | null>(null);
  const active = saved.views.find((view) => view.id === activeViewId);
  const failed = (error: unknown) =>
    toast({ title: t('planning:views.failed'), description: errorText(error), variant: 'destructive' });

  const saveAs = (name: string) =>
    saved.create.mutate(
      { name, state: currentState() },
      {
        onSuccess: (view) => {
          setDialog(null);
          onOpen(view);
          toast({ title: t('planning:views.saved', { name: view.name }) });
        },
        onError: failed,
      },
    );

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="sm" data-testid="saved-views-menu" disabled={isDisabled}>
            <BookmarkIcon />
            {active ? t('planning:views.buttonActive', { name: active.name }) : t('planning:views.button')}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="max-h-[70vh] w-72 overflow-y-auto">
          <DropdownMenuItem onSelect={() => setDialog('save')}>{t('planning:views.saveAs')}</DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel className="text-xs text-muted-foreground uppercase">
            {t('planning:views.mine')}
          </DropdownMenuLabel>
          {saved.views.length === 0 ? (
            <DropdownMenuItem disabled>{t('planning:views.none')}</DropdownMenuItem>
          ) : (
            saved.views.map((view) => (
              <DropdownMenuItem
                key={view.id}
                data-saved-view={view.name}
                onSelect={() => onOpen(view)}
                className={view.id === activeViewId ? 'font-semibold' : undefined}
              >
                {view.name}
              </DropdownMenuItem>
            ))
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem disabled={saved.views.length === 0} onSelect={() => setDialog('manage')}>
            {t('planning:views.manage')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>

      <Dialog open={dialog === 'save'} onOpenChange={(open) => !open && setDialog(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('planning:views.saveTitle')}</DialogTitle>
            <DialogDescription>{t('planning:views.saveDescription')}</DialogDescription>
          </DialogHeader>
          <NameForm
            initial=""
            views={saved.views}
            submitLabel={t('planning:views.save')}
            isBusy={saved.create.isPending}
            onSubmit={saveAs}
            onCancel={() => setDialog(null)}
          />
        </DialogContent>
      </Dialog>

      <Dialog
        open={dialog === 'manage'}
        onOpenChange={(open) => {
          if (!open) {
            setDialog(null);
            setRenaming(null);
          }
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('planning:views.manageTitle')}</DialogTitle>
            <DialogDescription>{t('planning:views.manageDescription')}</DialogDescription>
          </DialogHeader>
          {renaming ? (
            <NameForm
              key={renaming.id}
              initial={renaming.name}
              views={saved.views}
              ownId={renaming.id}
              submitLabel={t('planning:views.rename')}
              isBusy={saved.update.isPending}
              onSubmit={(name) =>
                saved.update.mutate(
                  { id: renaming.id, change: { name } },
                  { onSuccess: () => setRenaming(null), onError: failed },
                )
              }
              onCancel={() => setRenaming(null)}
            />
          ) : (
            <ul className="flex max-h-80 flex-col divide-y divide-border overflow-y-auto">
              {saved.views.map((view) => (
                <li
                  key={view.id}
                  className="flex items-center justify-between gap-2 py-1.5"
                  data-view-row={view.name}
                >
                  <span className="truncate text-sm">{view.name}</span>
                  <span className="flex shrink-0 gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t('planning:views.renameNamed', { name: view.name })}
                      onClick={() => setRenaming(view)}
                    >
                      <PencilIcon />
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t('planning:views.deleteNamed', { name: view.name })}
                      disabled={saved.remove.isPending}
                      onClick={() =>
                        saved.remove.mutate(view.id, {
                          onSuccess: () => {
                            toast({ title: t('planning:views.deleted', { name: view.name }) });
                            // Nothing left to manage.
                            if (saved.views.length <= 1) setDialog(null);
                          },
                          onError: failed,
                        })
                      }
                    >
                      <Trash2Icon />
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
