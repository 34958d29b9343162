import { readFileSync } from 'node:fs';
const { baseUrl, headers } = JSON.parse(readFileSync('/tmp/probe.json', 'utf8'));
const [viewLevel, drillDown, runs] = [process.argv[2] ?? 'business_unit', process.argv[3] ?? 'weekly', Number(process.argv[4] ?? 5)];
const page = await (await fetch(`${baseUrl}/api/demand-planning/grid?viewLevel=${viewLevel}&drillDown=${drillDown}&limit=500`, { headers })).json() as any;
let best: any = null;
for (const row of page.data.rows) if (!best || Math.abs(row.recordCount - 5000) < Math.abs(best.recordCount - 5000)) best = row;
console.log('cell', best.BU ?? best.PF, best.periodKey, best.recordCount);
for (let i = 1; i <= runs; i++) {
  const t = performance.now();
  const r = await fetch(`${baseUrl}/api/demand-planning/spread`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ viewLevel, drillDown, group: viewLevel === 'category' ? best.PF : best.BU, periodKey: best.periodKey, field: 'SOP_Pln_Ovrd_Units', value: best.recordCount * (100 + i + Math.floor(Math.random()*50)) }) });
  const body = await r.json() as any;
  console.log(r.status, Math.round(performance.now() - t), 'ms', body.data?.records);
  await new Promise((res) => setTimeout(res, Number(process.env.GAP ?? 0)));
}
