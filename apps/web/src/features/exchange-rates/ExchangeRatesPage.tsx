import { FOREIGN_CURRENCIES, rateOn, type ExchangeRate, type ForeignCurrency } from '@ps/domain';
import { Trash2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { PageHeading } from '@/components/PageHeading';
import { useExchangeRates } from '@/lib/settings/useExchangeRates';
import { useFormatters } from '@/lib/settings/useFormatters';
import { errorText } from '@/i18n/error-text';
import { useRateChanges } from './exchange-rates-api';

const INPUT = 'h-9 rounded-md border border-input bg-background px-3 text-sm';

function RateForm() {
  const { t } = useTranslation();
  const { save } = useRateChanges();
  const [currency, setCurrency] = useState<ForeignCurrency>('eur');
  const [validFrom, setValidFrom] = useState('');
  const [rate, setRate] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The server checks the values and names what is wrong; nothing to duplicate here.
    save.mutate(
      { currency, validFrom, rate: Number(rate) },
      {
        onSuccess: () => {
          toast({ title: t('rates:saved') });
          setRate('');
        },
        onError: (error) =>
          toast({ variant: 'destructive', title: t('rates:notSaved'), description: errorText(error) }),
      },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-4" aria-label={t('rates:form.title')}>
      <div className="flex flex-col gap-2">
        <Label htmlFor="rate-currency">{t('rates:column.currency')}</Label>
        <Select value={currency} onValueChange={(value) => setCurrency(value as ForeignCurrency)}>
          <SelectTrigger id="rate-currency" className="w-32">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {FOREIGN_CURRENCIES.map((code) => (
              <SelectItem key={code} value={code}>
                {code.toUpperCase()}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="rate-valid-from">{t('rates:column.validFrom')}</Label>
        <input
          id="rate-valid-from"
          type="date"
          required
          className={INPUT}
          value={validFrom}
          onChange={(event) => setValidFrom(event.target.value)}
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="rate-value">{t('rates:column.rate')}</Label>
        <input
          id="rate-value"
          type="number"
          step="any"
          min="0"
          required
          className={`${INPUT} w-36`}
          value={rate}
          onChange={(event) => setRate(event.target.value)}
        />
      </div>
      <Button type="submit" disabled={save.isPending}>
        {t('rates:form.save')}
      </Button>
    </form>
  );
}

function RateTable({ rates, asOf, canEdit }: { rates: ExchangeRate[]; asOf: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { remove } = useRateChanges();
  const inEffect = new Set(
    FOREIGN_CURRENCIES.flatMap((currency) => {
      const applied = rateOn(rates, currency, asOf);
      return applied ? [`${currency}/${applied.validFrom}`] : [];
    }),
  );
  const sorted = [...rates].sort(
    (a, b) => a.currency.localeCompare(b.currency) || b.validFrom.localeCompare(a.validFrom),
  );
  return (
    <table className="w-full text-sm" aria-label={t('rates:tableLabel')}>
      <thead className="text-left text-muted-foreground">
        <tr className="border-b border-border">
          <th className="py-2 font-medium">{t('rates:column.currency')}</th>
          <th className="py-2 font-medium">{t('rates:column.validFrom')}</th>
          <th className="py-2 text-right font-medium">{t('rates:column.rate')}</th>
          <th className="py-2 font-medium">
            <span className="sr-only">{t('rates:column.status')}</span>
          </th>
          {canEdit && (
            <th className="py-2">
              <span className="sr-only">{t('rates:column.actions')}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {sorted.map((row) => {
          const key = `${row.currency}/${row.validFrom}`;
          return (
            <tr key={key} className="border-b border-border last:border-b-0">
              <td className="py-2 font-medium">{row.currency.toUpperCase()}</td>
              <td className="py-2">{format.date(row.validFrom)}</td>
              <td className="py-2 text-right tabular-nums">{format.number(row.rate, 4)}</td>
              <td className="py-2 pl-4">
                {inEffect.has(key) && (
                  <span className="rounded-full bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary">
                    {t('rates:inEffect')}
                  </span>
                )}
              </td>
              {canEdit && (
                <td className="py-2 text-right">
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('rates:remove', {
                      currency: row.currency.toUpperCase(),
                      date: format.date(row.validFrom),
                    })}
                    onClick={() =>
                      remove.mutate(row, {
                        onError: (error) =>
                          toast({
                            variant: 'destructive',
                            title: t('rates:notSaved'),
                            description: errorText(error),
                          }),
                      })
                    }
                  >
                    <Trash2Icon className="size-4" aria-hidden />
                  </Button>
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Exchange rates: every user sees what money is converted with; admins keep the table. */
export default function ExchangeRatesPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  const table = useExchangeRates();
  const canEdit = useAuth().user?.groups.includes('admin') ?? false;

  return (
    <div className="flex flex-col gap-6 p-6">
      <PageHeading title={t('rates:title')} subtitle={t('rates:subtitle')} />
      {canEdit && (
        <Card>
          <CardHeader>
            <CardTitle>{t('rates:form.title')}</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2">
            <p className="text-sm text-muted-foreground">{t('rates:form.hint')}</p>
            <RateForm />
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t('rates:tableTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          {table ? (
            <RateTable rates={table.rates} asOf={table.asOf} canEdit={canEdit} />
          ) : (
            <p className="text-sm text-muted-foreground">{t('common:loading')}</p>
          )}
        </CardContent>
      </Card>
      {table && table.changes.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>{t('rates:changesTitle')}</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-1 text-sm">
              {table.changes.map((change, index) => (
                <li key={index}>
                  {change.newRate === null
                    ? t('rates:changeRemoved', {
                        by: change.changedBy,
                        when: format.dateTime(change.changedAt),
                        currency: change.currency.toUpperCase(),
                        date: format.date(change.validFrom),
                      })
                    : t('rates:changeSet', {
                        by: change.changedBy,
                        when: format.dateTime(change.changedAt),
                        currency: change.currency.toUpperCase(),
                        date: format.date(change.validFrom),
                        old: change.oldRate === null ? t('rates:none') : format.number(change.oldRate, 4),
                        new: format.number(change.newRate, 4),
                      })}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
