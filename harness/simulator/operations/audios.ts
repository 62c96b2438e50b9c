/** desativarAudio */
import { refusal } from '../errors';
import { outId, present, type OperationHandler } from './context';

export const desativarAudio: OperationHandler = (fields, context) => {
	const id = fields.integer('id', true)!;
	const audio = context.data.audios.find((candidate) => candidate.id === id);
	if (!audio) throw refusal(`Áudio não encontrado: ${id}`);
	if (!audio.ativo) throw refusal(`Áudio ${id} já está desativado`);
	audio.ativo = false;
	return present(context, { id: outId(context, audio.id) });
};
