import type { FlowRow } from '@ps/domain';
import { describe, expect, it } from 'vitest';
import { flowsWorkbook, type FlowSheetLabels } from '../utils/export-flows';

const labels: FlowSheetLabels = {
  sheet: 'Flows',
  leg: 'Leg',
  from: 'From',
  to: 'To',
  family: 'Family',
  period: 'Period',
  units: 'Units',
  cost: 'Cost',
  leadTime: 'Lead time (days)',
  inbound: 'Plant → DC',
  outbound: 'DC → customer',
};

const flow = (cost: number, units: number): FlowRow => ({
  leg: 'inbound',
  from: 'Plant A',
  to: 'DC 1',
  family: 'Ball Valves',
  period: '2026-12',
  units,
  cost,
  leadTimeDays: 4,
});

const rows = [flow(15_000.5, 1_234_567.25), flow(-12.34, 10)];

describe('flows workbook', () => {
  it('writes dollars as before for a USD user: "$" with cents, units to 3 decimals, no note', async () => {
    const book = await flowsWorkbook(rows, labels, {
      currency: { rate: { currency: 'usd', rate: 1, validFrom: null }, missing: null },
      numberFormat: 'us',
      note: null,
    });
    const sheet = book.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Leg',
      'From',
      'To',
      'Family',
      'Period',
      'Units',
      'Cost',
      'Lead time (days)',
    ]);
    expect(sheet.getRow(2).getCell(1).value).toBe('Plant → DC');
    expect(sheet.getRow(2).getCell(7).value).toBe(15_000.5);
    expect(sheet.getRow(2).getCell(7).numFmt).toBe('"$"#,##0.00;[Red]-"$"#,##0.00');
    expect(sheet.getRow(2).getCell(6).numFmt).toBe('#,##0.000');
    expect(sheet.actualRowCount).toBe(3);
  });

  it("converts cost with the screen's rate, to the cent, in rupees grouped in lakhs, and says which rate", async () => {
    const note = 'Amounts in INR, converted from USD at 83.1200 INR per USD (rate valid from 07/01/2026).';
    const book = await flowsWorkbook(rows, labels, {
      currency: { rate: { currency: 'inr', rate: 83.12, validFrom: '2026-07-01' }, missing: null },
      numberFormat: 'indian',
      note,
    });
    const sheet = book.worksheets[0]!;
    const cost = sheet.getRow(2).getCell(7);
    // 15,000.50 × 83.12 = 12,46,841.56
    expect(cost.value).toBe(1_246_841.56);
    expect(cost.numFmt).toBe(
      '[>=9999999.995]"₹"##\\,##\\,##\\,##0.00;[>=99999.995]"₹"##\\,##\\,##0.00;"₹"#,##0.00',
    );
    // −12.34 × 83.12 = −1,025.70: below a lakh, the US shape with its red minus.
    expect(sheet.getRow(3).getCell(7).value).toBe(-1_025.7);
    expect(sheet.getRow(3).getCell(7).numFmt).toBe('"₹"#,##0.00;[Red]-"₹"#,##0.00');
    // Units are not money: unchanged, grouped in lakhs.
    expect(sheet.getRow(2).getCell(6).value).toBe(1_234_567.25);
    expect(sheet.getRow(2).getCell(6).numFmt).toBe(
      '[>=9999999.9995]##\\,##\\,##\\,##0.000;[>=99999.9995]##\\,##\\,##0.000;#,##0.000',
    );
    expect(sheet.getRow(5).getCell(1).value).toBe(note);
  });
});
