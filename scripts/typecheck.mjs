// Type-checks each workspace with its own compiler settings (DOM only for the web app, node elsewhere).
import { execFileSync } from 'node:child_process';

const projects = ['packages/domain', 'packages/forecast', 'apps/server', 'apps/web', 'e2e', 'bench'];
let failed = false;
for (const project of projects) {
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'inherit' });
  } catch {
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
