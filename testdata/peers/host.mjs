// A host that is not ours: the TypeScript SDK's Client, as an AI app would
// use it, to check that `elicitdesk bridge` works for hosts we did not write.
//
//   node host.mjs [--url URL] (--call TOOL [--args JSON])... [-- COMMAND ARGS...]
//
// It connects to the server (COMMAND over stdio, or URL over Streamable
// HTTP), prints {"tools": [names]} as one line, then calls each tool in turn
// and prints each CallToolResult as one line. Exit 0 when every call
// returned a result; otherwise the error goes to stderr and the exit is 1.
//
// It declares sampling but NOT elicitation, so elicitations only reach a
// person when the bridge takes them on; its sampling answer is fixed, so a
// test can see it came back through the bridge.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";

export const sampled = {
  role: "assistant",
  content: { type: "text", text: "sampled by the test host" },
  model: "test-host",
  stopReason: "endTurn",
};

// A person answers elicitations while the call waits: far longer than the
// SDK's 60 s default, and progress notifications keep it going.
const callTimeout = 10 * 60 * 1000;

export function parseArgs(argv) {
  const opts = { url: "", calls: [], command: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      opts.command = argv.slice(i + 1);
      break;
    } else if (a === "--url") {
      opts.url = argv[++i];
    } else if (a === "--call") {
      opts.calls.push({ name: argv[++i], arguments: {} });
    } else if (a === "--args" && opts.calls.length > 0) {
      opts.calls[opts.calls.length - 1].arguments = JSON.parse(argv[++i]);
    } else {
      throw new Error(`unknown argument ${JSON.stringify(a)}`);
    }
  }
  if (Boolean(opts.url) === opts.command.length > 0) {
    throw new Error("name exactly one server: --url URL or -- COMMAND ARGS...");
  }
  return opts;
}

// transport connects to the server the options name. A stdio child gets
// this process's whole environment, not the SDK's short default list: the
// bridge finds the running app through XDG_RUNTIME_DIR and DISPLAY.
export function transport(opts) {
  if (opts.url) {
    return new StreamableHTTPClientTransport(new URL(opts.url));
  }
  return new StdioClientTransport({
    command: opts.command[0],
    args: opts.command.slice(1),
    env: process.env,
    stderr: "inherit",
  });
}

export function newClient(name) {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => sampled);
  return client;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const client = newClient("elicitdesk-test-host");
  await client.connect(transport(opts));
  try {
    const { tools } = await client.listTools();
    console.log(JSON.stringify({ tools: tools.map((t) => t.name) }));
    for (const call of opts.calls) {
      const result = await client.callTool(call, undefined, {
        timeout: callTimeout,
        resetTimeoutOnProgress: true,
        onprogress: () => {},
      });
      console.log(JSON.stringify(result));
    }
  } finally {
    await client.close();
  }
}

// Run only as a script: bench.mjs imports the pieces.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(`host: ${err?.stack ?? err}`);
      process.exit(1);
    },
  );
}
