/** The twelve operations of the contract, by path name. */
import { desativarAudio } from './audios';
import { getLigacaoAtivaByRamal, logout, pauseout } from './agents';
import type { OperationHandler } from './context';
import { getFP1 } from './fp1';
import { getLotesAtivos, getTime } from './lists';
import { changeLoteToFila, criarFilaAtiva } from './queues';
import { getHC2, getRE2, getRQ4 } from './reports';

export const operations: Record<string, OperationHandler> = {
	getFP1,
	getRQ4,
	getHC2,
	getRE2,
	criarFilaAtiva,
	changeLoteToFila,
	getLotesAtivos,
	getTime,
	getLigacaoAtivaByRamal,
	logout,
	pauseout,
	desativarAudio,
};
