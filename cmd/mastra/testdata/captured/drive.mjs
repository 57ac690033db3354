// node drive.mjs <real|go> <outdir> [name-filter]
// Runs every case of cases.json with the real Mastra CLI (real) or the Go
// build (go); writes <name>.txt ($ command, [stdout], [stderr], [exit N])
// and, for real runs, <name>.jsonl: the HTTP exchanges the proxy on :4000
// logged while the case ran.
// The environment may point it elsewhere (record-memory.sh does):
// DRIVE_BIN (the CLI), DRIVE_LOG (the proxy's log), DRIVE_CASES (the cases
// file), DRIVE_CWD (the empty directory the CLI runs in), and DRIVE_FROM
// (run only the cases from the one of this name on).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
const [which, outdir, filter] = process.argv.slice(2);
const bin = process.env.DRIVE_BIN || (which === 'real' ? '/tmp/tmp.hGL0kEJ7xh/anchor-mastra/node_modules/.bin/mastra' : '/tmp/cliwork/gomastra');
const LOG = process.env.DRIVE_LOG || '/tmp/cliwork/capture.jsonl';
const CASES = process.env.DRIVE_CASES || '/tmp/cliwork/cases.json';
const CWD = process.env.DRIVE_CWD || '/tmp/cliwork/empty';
const FROM = process.env.DRIVE_FROM;
const lines = () => (fs.existsSync(LOG) ? fs.readFileSync(LOG, 'utf8').split('\n').filter(Boolean) : []);
const KEEP = new Set(['content-type', 'content-length', 'accept', 'user-agent']);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
fs.mkdirSync(outdir, { recursive: true });
let started = !FROM;
for (const [name, args] of JSON.parse(fs.readFileSync(CASES, 'utf8'))) {
  started ||= name === FROM;
  if (!started || (filter && !name.includes(filter))) continue;
  const before = lines().length;
  const r = spawnSync(bin, args, { cwd: CWD, env: { ...process.env, MASTRA_TELEMETRY_DISABLED: '1' }, encoding: 'utf8' });
  fs.writeFileSync(`${outdir}/${name}.txt`, `$ mastra ${args.join(' ')}\n[stdout]\n${r.stdout}[stderr]\n${r.stderr}[exit ${r.status}]\n`);
  await sleep(150);
  const ex = lines().slice(before).map((l) => {
    const x = JSON.parse(l);
    const pick = (h) => Object.fromEntries(Object.entries(h).filter(([k]) => KEEP.has(k)));
    const big = x.url.endsWith('/system/api-schema') && x.status === 200;
    return { method: x.method, url: x.url, reqHeaders: pick(x.reqHeaders), reqBody: x.reqBody, status: x.status,
      resHeaders: pick(x.resHeaders), resBody: big ? '@api-schema.json' : x.resBody, ...(big ? { resBodyBytes: x.resBody.length } : {}) };
  });
  if (which === 'real' && ex.length) fs.writeFileSync(`${outdir}/${name}.jsonl`, ex.map((e) => JSON.stringify(e)).join('\n') + '\n');
}
