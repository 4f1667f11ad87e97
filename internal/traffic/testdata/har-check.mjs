// Checks a HAR file on stdin against the HAR 1.2 schema with
// har-validator (npm), the checker HTTP tools use: prints "valid", or the
// schema's errors and exits 1.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(process.env.ELICITDESK_PEERS + '/');
const validate = require('har-validator');
validate.har(JSON.parse(readFileSync(0, 'utf8'))).then(
  () => console.log('valid'),
  (e) => { console.error(JSON.stringify(e.errors ?? e.message, null, 1)); process.exit(1); },
);
