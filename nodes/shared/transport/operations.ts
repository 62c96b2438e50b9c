/** The API operations, by the name that ends their path. */
export type ApiOperation =
	| 'logout'
	| 'pauseout'
	| 'getLigacaoAtivaByRamal'
	| 'criarFilaAtiva'
	| 'getLotesAtivos'
	| 'changeLoteToFila'
	| 'getTime'
	| 'desativarAudio'
	| 'getFP1'
	| 'getRQ4'
	| 'getHC2'
	| 'getRE2';
