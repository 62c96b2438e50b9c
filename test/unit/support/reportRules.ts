/** Each report's rule for what one of its rows is, by the API operation's name. */
import * as callHistory from '../../../nodes/shared/reports/callHistory';
import * as classificationResults from '../../../nodes/shared/reports/classificationResults';
import * as filledForms from '../../../nodes/shared/reports/filledForms';
import * as inboundCalls from '../../../nodes/shared/reports/inboundCalls';
import type { RowIdentityRule } from '../../../nodes/shared/reports/rowSource';

export type Report = 'getFP1' | 'getRQ4' | 'getRE2' | 'getHC2';

export const RULES: Record<Report, RowIdentityRule> = {
	getFP1: filledForms.rowSource.identity,
	getRQ4: classificationResults.rowSource.identity,
	getRE2: inboundCalls.rowSource.identity,
	getHC2: callHistory.rowSource.identity,
};
