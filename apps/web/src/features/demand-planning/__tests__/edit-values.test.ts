import { describe, expect, it } from 'vitest';
import { parseEditValue } from '../utils/edit-values';

describe('parseEditValue', () => {
  it('accepts override percents from 0 to 100 with up to 2 decimals', () => {
    expect(parseEditValue('Rev_Pln_Ovrd_Percent', 0)).toEqual({ ok: true, value: 0 });
    expect(parseEditValue('Rev_Pln_Ovrd_Percent', '12.25')).toEqual({ ok: true, value: 12.25 });
    expect(parseEditValue('SOP_Pln_Ovrd_Percent', 100)).toEqual({ ok: true, value: 100 });
  });
  it('refuses percents out of bounds or with 3 decimals, naming the column', () => {
    expect(parseEditValue('Rev_Pln_Ovrd_Percent', 100.01)).toEqual({
      ok: false,
      message: 'Rev Plan Override % must be at most 100',
      reason: 'must be at most 100',
    });
    expect(parseEditValue('SOP_Pln_Ovrd_Percent', -1)).toMatchObject({ ok: false });
    expect(parseEditValue('SOP_Pln_Ovrd_Percent', 1.005)).toEqual({
      ok: false,
      message: 'S&OP Plan Override % must have at most 2 decimals',
      reason: 'must have at most 2 decimals',
    });
    expect(parseEditValue('SOP_Pln_Ovrd_Percent', 'abc')).toEqual({
      ok: false,
      message: 'S&OP Plan Override % must be a number',
      reason: 'must be a number',
    });
  });
  it('accepts whole units of 0 or more and refuses fractions and negatives', () => {
    expect(parseEditValue('Rev_Pln_Ovrd_Units', '140')).toEqual({ ok: true, value: 140 });
    expect(parseEditValue('SOP_Pln_Ovrd_Units', 0)).toEqual({ ok: true, value: 0 });
    expect(parseEditValue('SOP_Pln_Ovrd_Units', 1.5)).toMatchObject({ ok: false });
    expect(parseEditValue('Rev_Pln_Ovrd_Units', -3)).toMatchObject({ ok: false });
  });
  it('treats an emptied cell as clearing the override', () => {
    expect(parseEditValue('Rev_Pln_Ovrd_Units', '')).toEqual({ ok: true, value: null });
    expect(parseEditValue('Rev_Pln_Ovrd_Percent', null)).toEqual({ ok: true, value: null });
    expect(parseEditValue('Comments', '   ')).toEqual({ ok: true, value: null });
    expect(parseEditValue('Reason_Code', '')).toEqual({ ok: true, value: null });
  });
  it('accepts the five reason codes only', () => {
    expect(parseEditValue('Reason_Code', 'Seasonal Adjustment')).toEqual({
      ok: true,
      value: 'Seasonal Adjustment',
    });
    expect(parseEditValue('Reason_Code', 'Because')).toMatchObject({ ok: false });
  });
  it('accepts comments up to 500 characters', () => {
    expect(parseEditValue('Comments', 'x'.repeat(500))).toMatchObject({ ok: true });
    expect(parseEditValue('Comments', 'x'.repeat(501))).toEqual({
      ok: false,
      message: 'Comments must be at most 500 characters',
      reason: 'must be at most 500 characters',
    });
  });
});
