import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';

type ConfirmCountDialogProps = {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: string;
  /** What the action will touch, with its count; null while the count is being asked for. */
  description: string | null;
  confirmLabel: string;
  /** False when there is nothing to act on (the description says so). */
  canConfirm: boolean;
  onConfirm: () => void;
  testId: string;
};

/**
 * Asks before an action that rewrites many records at once, saying how many it will touch, so a
 * planner never starts one by a stray click.
 */
export function ConfirmCountDialog({
  isOpen,
  onOpenChange,
  title,
  description,
  confirmLabel,
  canConfirm,
  onConfirm,
  testId,
}: ConfirmCountDialogProps) {
  const { t } = useTranslation();
  return (
    <AlertDialog open={isOpen} onOpenChange={onOpenChange}>
      <AlertDialogContent data-testid={testId}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description ?? t('common:loading')}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{t('common:cancel')}</AlertDialogCancel>
          <AlertDialogAction disabled={description === null || !canConfirm} onClick={onConfirm}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
