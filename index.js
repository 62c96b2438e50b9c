// The package's entry point for code that embeds or tests the nodes:
// `const { Dialer, DialerApi } = require('n8n-nodes-dialer')`. n8n itself does not use it: it
// loads the files that package.json lists under "n8n". Needs the build (`npm run build`).
module.exports = {
	...require('./dist/nodes/Dialer/Dialer.node'),
	...require('./dist/nodes/DialerTrigger/DialerTrigger.node'),
	...require('./dist/nodes/DialerReportTrigger/DialerReportTrigger.node'),
	...require('./dist/credentials/DialerApi.credentials'),
};
