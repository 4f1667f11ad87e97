// Checks values against a format as the TypeScript SDK's servers check an
// elicitation's answer: the SDK's default validator (Ajv with ajv-formats).
// Reads {"format": F, "values": [...]} on stdin; prints one true or false a
// value, in order, as a JSON array.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(process.env.ELICITDESK_PEERS + '/');
const { AjvJsonSchemaValidator } = require('@modelcontextprotocol/sdk/validation/ajv');
const { format, values } = JSON.parse(readFileSync(0, 'utf8'));
const check = new AjvJsonSchemaValidator().getValidator({ type: 'string', format });
console.log(JSON.stringify(values.map((v) => check(v).valid)));
