/** Each report's rule for what one of its rows is, by the API operation's name. */
import * as callHistory from '../../../nodes/Dialer/actions/report/getCallHistory.operation';
import * as classificationResults from '../../../nodes/Dialer/actions/report/getClassificationResults.operation';
import * as filledForms from '../../../nodes/Dialer/actions/report/getFilledForms.operation';
import * as inboundCalls from '../../../nodes/Dialer/actions/report/getInboundCalls.operation';
import type { RowIdentityRule } from '../../../nodes/Dialer/actions/report/rowSource';

export type Report = 'getFP1' | 'getRQ4' | 'getRE2' | 'getHC2';

export const RULES: Record<Report, RowIdentityRule> = {
	getFP1: filledForms.rowSource.identity,
	getRQ4: classificationResults.rowSource.identity,
	getRE2: inboundCalls.rowSource.identity,
	getHC2: callHistory.rowSource.identity,
};
