import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { COMING_SOON_MESSAGE } from '../nav-items';

type ComingSoonDialogProps = { isOpen: boolean; onOpenChange: (isOpen: boolean) => void };

/** The alert a Coming Soon item shows instead of navigating (spec §2 sidebar). */
export function ComingSoonDialog({ isOpen, onOpenChange }: ComingSoonDialogProps) {
  return (
    <AlertDialog open={isOpen} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Coming Soon</AlertDialogTitle>
          <AlertDialogDescription>{COMING_SOON_MESSAGE}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogAction>OK</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
