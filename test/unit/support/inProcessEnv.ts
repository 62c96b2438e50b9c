/**
 * What n8n-core reads from the environment when its services start, set before it loads
 * (inProcessN8n.ts imports this first). Its instance settings, a config file holding the
 * encryption key, go to one folder under the system's temporary directory instead of ~/.n8n; the
 * key is fixed, so test processes writing that file at once all write the same. Nothing is
 * encrypted with it: the in-process credentials are handed to nodes as they are. Its logger is
 * silent, since a node's error is the test's to show.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_USER_FOLDER ??= path.join(tmpdir(), 'n8n-nodes-dialer-in-process');
process.env.N8N_ENCRYPTION_KEY ??= 'n8n-nodes-dialer-in-process-tests';
process.env.N8N_LOG_LEVEL ??= 'silent';
