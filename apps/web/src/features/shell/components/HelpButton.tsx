import { CircleHelpIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';

/** Header help: what each area of the suite is for and how to move around. */
export function HelpButton() {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Help">
          <CircleHelpIcon aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96">
        <h2 className="mb-2 text-sm font-semibold">Getting around</h2>
        <ul className="flex list-disc flex-col gap-2 pl-4 text-sm text-muted-foreground">
          <li>
            <strong className="text-foreground">Demand planning</strong>: review forecasts per product and
            week, override them with a reason, import and export spreadsheets.
          </li>
          <li>
            <strong className="text-foreground">Control tower</strong>: cycle-to-cycle forecast analysis,
            accuracy, inventory and supply–demand match.
          </li>
          <li>
            <strong className="text-foreground">Settings</strong> (sidebar or your avatar): theme, number,
            date and currency formats, planning defaults.
          </li>
          <li>The arrows at the foot of the sidebar narrow it to icons and widen it again.</li>
        </ul>
      </PopoverContent>
    </Popover>
  );
}
