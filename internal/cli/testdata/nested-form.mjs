// An MCP server (the TypeScript SDK's) whose one tool, nested, asks for a
// form the spec forbids: a field that is an object.
import { createRequire } from 'node:module';

const require = createRequire(process.env.ELICITDESK_PEERS + '/');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');

const server = new McpServer({ name: 'nested', version: '0.1.0' });
server.registerTool('nested', { description: 'Asks for a nested form.' }, async () => {
  try {
    const r = await server.server.elicitInput({
      message: 'Your address?',
      requestedSchema: { type: 'object', properties: { addr: { type: 'object', properties: { street: { type: 'string' } } } } },
    });
    return { content: [{ type: 'text', text: JSON.stringify(r) }] };
  } catch (e) {
    return { content: [{ type: 'text', text: 'refused: ' + e.message }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
