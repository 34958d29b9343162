import { CircleHelpIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';

const TOPICS: { title: string; text: string }[] = [
  {
    title: 'Filters',
    text: 'Pick business units, product families and regions, then Apply. Search narrows the list; Clear removes the filter. Product ID search matches part of a PID.',
  },
  {
    title: 'View Level',
    text: 'None shows every product-week record. Product ID, Product Family and Business Unit levels add the records up: units and money are summed, override percents averaged weighted by final planned units.',
  },
  {
    title: 'Drill Down',
    text: 'Groups the weeks into weeks, months, quarters or years. Weeks start on Sunday; a week is shown by the Saturday it ends on.',
  },
  {
    title: 'Forecast overrides',
    text: 'Edit Mode opens the override columns of the original table: Rev and S&OP plan override percent (0–100, 2 decimals) or units (whole, 0 or more), a reason code and comments (up to 500 characters). Changed cells are marked until you save or discard.',
  },
  {
    title: 'Saving',
    text: 'Save Changes writes all your edits at once and recomputes the plan: Prelim = baseline adjusted by the Rev override, Final = Prelim adjusted by the S&OP override. If someone else changed a record since you loaded it, nothing is overwritten: you are told which records, and they show the new values.',
  },
  {
    title: 'Export',
    text: 'Export CSV downloads what the grid shows, with your filters and view level, for every page.',
  },
  {
    title: 'Focus View',
    text: 'Hides the dashboard, summary and details panel so the grid has the room. Show Dashboard brings them back.',
  },
];

/** The page's help popover (spec §2: 96 units wide, scroll area at most 96 units high). */
export function PageHelp() {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Help">
          <CircleHelpIcon aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-96 p-0">
        <h2 className="border-b border-border px-4 py-3 text-sm font-semibold">Demand planning help</h2>
        <div className="max-h-96 overflow-y-auto px-4 py-3" tabIndex={0} aria-label="Help topics">
          <dl className="flex flex-col gap-3 text-sm">
            {TOPICS.map((topic) => (
              <div key={topic.title}>
                <dt className="font-medium">{topic.title}</dt>
                <dd className="text-muted-foreground">{topic.text}</dd>
              </div>
            ))}
          </dl>
        </div>
      </PopoverContent>
    </Popover>
  );
}
