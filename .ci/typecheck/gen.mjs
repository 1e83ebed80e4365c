// Writes one TypeScript file per captured payload (policies/testdata/payloads)
// that assigns the payload, as an object literal, to the provider's published
// type named in checks.json, so that tsc checks it. Fails when a captured
// payload has no check and its wire is not listed as unpublished, so a new
// event type cannot go unchecked.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const payloads = join(here, '..', '..', 'policies', 'testdata', 'payloads');
const out = join(here, 'out');
const { wires, unpublished = {} } = JSON.parse(readFileSync(join(here, 'checks.json'), 'utf8'));

const helper = `// Json<T> is T as JSON can write it: a string enum's values as the strings
// they are (TypeScript would want the enum's name). Known<T> is Json<T>
// with every field optional, none unknown (see checks.json).
export type Json<T> = T extends string ? \`\${T}\` : T extends readonly (infer U)[] ? Json<U>[] : T extends object ? { [K in keyof T]: Json<T[K]> } : T;
export type Known<T> = T extends string ? \`\${T}\` : T extends readonly (infer U)[] ? Known<U>[] : T extends object ? { [K in keyof T]?: Known<T[K]> } : T;
// MemberFlags<T>: discord-api-types types a guild member's flags as the
// GuildMemberFlags enum, which has no member for 0 (no flags set), the
// value Discord sends for most members.
export type MemberFlags<T> = T extends { member?: infer M } ? Omit<T, 'member'> & { member?: Omit<NonNullable<M>, 'flags'> & { flags: number } } : T;
`;

rmSync(out, { recursive: true, force: true });
mkdirSync(out);
writeFileSync(join(out, 'known.ts'), helper);

const problems = [];
let files = 0;
let checked = 0;
const skipped = {};
for (const wire of readdirSync(payloads).sort()) {
  for (const file of readdirSync(join(payloads, wire)).sort()) {
    files++;
    const typ = file.replace(/\.(json|form)$/, '');
    const base = wire.split('@')[0];
    if (unpublished[base]) {
      skipped[base] = (skipped[base] || 0) + 1;
      continue;
    }
    if (wire.includes('@')) {
      skipped[wire] = (skipped[wire] || 0) + 1; // an older version, kept as a choice: today's types do not describe it
      continue;
    }
    const spec = wires[wire];
    const list = spec && spec.checks[typ];
    if (!list) {
      problems.push(`${wire}/${file}: no check in checks.json, and ${wire} is not listed as unpublished`);
      continue;
    }
    const raw = readFileSync(join(payloads, wire, file), 'utf8');
    const payload = JSON.parse(raw);
    if (spec.stringified && JSON.stringify(payload) !== raw) {
      // Zoom's Rivet checks the signature over JSON.stringify of the parsed
      // body, not over the bytes received: they must be the same.
      problems.push(`${wire}/${file}: JSON.stringify of the parsed body differs from the body, so ${spec.stringified} rejects its signature`);
    }
    let ts = `${spec.import}\nimport type { Json, Known, MemberFlags } from './known.js';\n`;
    list.forEach((c, i) => {
      let part = payload;
      for (const key of (c.path || '').split('.').filter(Boolean)) {
        part = part?.[key];
      }
      if (part === undefined) {
        problems.push(`${wire}/${file}: no ${c.path} in the payload`);
        return;
      }
      const type = c.mode === 'exact' ? `Json<${c.type}>` : `Known<${c.type}>`;
      ts += `\n// ${c.path || 'the whole payload'} as ${c.mode}\nexport const check${i}: ${type} = ${JSON.stringify(part, null, 2)};\n`;
      checked++;
    });
    writeFileSync(join(out, `${wire}__${typ.replace(/[^A-Za-z0-9_]/g, '_')}.ts`), ts);
  }
}
if (!existsSync(payloads) || files === 0) {
  problems.push(`no captured payloads under ${payloads}`);
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const skips = Object.entries(skipped).map(([w, n]) => `${w} ${n}`).join(', ');
console.log(`${checked} checks of ${files} captured payloads written${skips ? `; not checked (no published types, or an older version): ${skips}` : ''}`);
