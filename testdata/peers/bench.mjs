// What the bridge costs a host: the same tools/call of server-everything's
// echo, once straight to the server and once through the bridge.
//
//   node bench.mjs --calls N --direct CMD... --bridged CMD...
//
// Each CMD is one JSON array (a command line). Both clients connect first,
// warm up, then alternate calls so drift (CPU frequency, GC, other load)
// falls on both sides alike. It prints one JSON line:
//   {"calls":N,"direct":{"median":µs,"p90":µs},"bridged":{...},"ratio":bridged/direct median,"bridgedPid":PID}
// and, while still connected, waits for a line on stdin before closing, so
// the caller can read the bridge's memory with the client still attached.
import { newClient, transport } from "./host.mjs";
import { createInterface } from "node:readline";

function parseArgs(argv) {
  const opts = { calls: 1000, warmup: 50, direct: null, bridged: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    switch (flag) {
      case "--calls": opts.calls = Number(value); break;
      case "--warmup": opts.warmup = Number(value); break;
      case "--direct": opts.direct = JSON.parse(value); break;
      case "--bridged": opts.bridged = JSON.parse(value); break;
      default: throw new Error(`unknown argument ${JSON.stringify(flag)}`);
    }
  }
  if (!opts.direct || !opts.bridged || !(opts.calls > 0)) {
    throw new Error('usage: bench.mjs --calls N --direct \'["cmd","arg"]\' --bridged \'["cmd","arg"]\'');
  }
  return opts;
}

async function connect(name, command) {
  const t = transport({ url: "", command });
  const client = newClient(name);
  await client.connect(t);
  return { client, pid: t.pid, times: [] };
}

// echo times one call in microseconds.
async function echo(side, i) {
  const start = process.hrtime.bigint();
  const res = await side.client.callTool({ name: "echo", arguments: { message: `m${i}` } });
  const took = Number(process.hrtime.bigint() - start) / 1000;
  if (res.content?.[0]?.text !== `Echo: m${i}`) {
    throw new Error(`unexpected echo: ${JSON.stringify(res)}`);
  }
  return took;
}

function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(s.length * q))];
  return { median: Math.round(at(0.5)), p90: Math.round(at(0.9)) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const direct = await connect("bench-direct", opts.direct);
  const bridged = await connect("bench-bridged", opts.bridged);
  try {
    for (let i = 0; i < opts.warmup; i++) {
      await echo(direct, i);
      await echo(bridged, i);
    }
    for (let i = 0; i < opts.calls; i++) {
      // Alternate which side goes first too, so neither always follows the other.
      const [a, b] = i % 2 === 0 ? [direct, bridged] : [bridged, direct];
      a.times.push(await echo(a, i));
      b.times.push(await echo(b, i));
    }
    const d = stats(direct.times);
    const b = stats(bridged.times);
    console.log(JSON.stringify({
      calls: opts.calls,
      direct: d,
      bridged: b,
      ratio: Math.round((b.median / d.median) * 100) / 100,
      bridgedPid: bridged.pid,
    }));
    // Hold the connections until told: the caller reads the bridge's RSS now.
    if (!process.stdin.isTTY) {
      for await (const _ of createInterface({ input: process.stdin })) break;
    }
  } finally {
    await direct.client.close();
    await bridged.client.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench: ${err?.stack ?? err}`);
    process.exit(1);
  },
);
