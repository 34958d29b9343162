import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { useTranslation } from 'react-i18next';

type ComingSoonDialogProps = { isOpen: boolean; onOpenChange: (isOpen: boolean) => void };

/** The alert a Coming Soon item shows instead of navigating (spec §2 sidebar). */
export function ComingSoonDialog({ isOpen, onOpenChange }: ComingSoonDialogProps) {
  const { t } = useTranslation();
  return (
    <AlertDialog open={isOpen} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{t('shell:comingSoon.title')}</AlertDialogTitle>
          <AlertDialogDescription>{t('shell:comingSoon.message')}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogAction>{t('common:ok')}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
