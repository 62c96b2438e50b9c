export { Dialer } from './dist/nodes/Dialer/Dialer.node';
export { DialerTrigger } from './dist/nodes/DialerTrigger/DialerTrigger.node';
export { DialerReportTrigger } from './dist/nodes/DialerReportTrigger/DialerReportTrigger.node';
export { DialerApi } from './dist/credentials/DialerApi.credentials';
