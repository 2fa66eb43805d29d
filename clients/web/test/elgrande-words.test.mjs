// El Grande's words from the catalogs (elgrande.*): counts in whole sentences, lists in the
// language's form, names of areas, ladders and options.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {
  AreaName, card, colourName, decisionWords, describeAction, describeEvent, ladderName, phaseName, purposeText,
} from '../js/games/elgrande/texts.js';
import {moveLimitText} from '../js/games/elgrande/decisionrules.js';
import {optionsText} from '../js/games/elgrande/options.js';

const ctx = {names: ['Ana', 'Bea'], options: {players: 2, automa: true}};

test('counts in sentences: one caballero, two caballeros', () => {
  assert.equal(describeEvent({type: 'automa_placed_caballeros', count: 1, region: 'aragon'}, ctx), 'The automa placed 1 caballero in Aragón.');
  assert.equal(describeEvent({type: 'automa_placed_caballeros', count: 2, region: 'castillo'}, ctx), 'The automa placed 2 caballeros in the castillo.');
  assert.equal(describeEvent({type: 'castillo_emptied', count: 1, colour: 2}, ctx), '1 caballero of the automa left the castillo for the court.');
  assert.equal(describeEvent({type: 'game_ended', scores: [50, 50], winners: [0, 1]}, ctx), 'The game is over! Ana and Bea share the win. Scores: Ana 50 and Bea 50.');
  assert.equal(describeEvent({type: 'game_ended', scores: [40, 50], winners: [1]}, ctx), 'The game is over! Bea wins. Scores: Bea 50 and Ana 40.');
  assert.equal(describeAction({type: 'take_caballeros', from_province: 1}, ctx), 'take 1 caballero into the court');
});

test('lists, the start of a sentence, and scoreboards by their board', () => {
  assert.equal(describeEvent({type: 'caballeros_moved', by: 0, moves: [
    {count: 1, colour: 1, from: 'aragon', to: 'castillo'}, {count: 2, colour: 0, from: 'galicia', to: 'sevilla'}]}, ctx),
  'Ana moved 1 caballero of Bea from Aragón to the castillo and 2 caballeros of Ana from Galicia to Sevilla.');
  assert.equal(describeEvent({type: 'area_scored', area: 'castillo', points: [5, 0], caballeros: [1, 0], king_bonus: 0}, ctx),
    'The castillo scored: Ana 5 (king bonus to Ana).');
  assert.equal(describeEvent({type: 'area_scored', area: 'aragon', points: [0, 0], caballeros: [0, 0]}, ctx), 'Aragón scored: nobody there.');
  assert.equal(describeEvent({type: 'scoreboard_placed', board: 'four_zero_zero', to: 'granada'}, ctx), 'The 4-0-0 scoreboard now lies on Granada.');
  assert.equal(describeAction({type: 'place_scoreboard', board: 'eight_four_zero', to: 'castillo'}, ctx), 'put the 8-4-0 scoreboard on the castillo');
  assert.equal(AreaName('aragon'), 'Aragón');
});

test('names: the automa, colours, cards, phases, decisions, purposes', () => {
  assert.equal(colourName(2, ctx.names, ctx.options), 'the automa');
  assert.equal(colourName(3, [], {players: 4}), 'Colour 4');
  assert.equal(card(0).title, 'Retreat');
  assert.equal(phaseName('veto_window'), 'Veto?');
  assert.equal(phaseName('new_phase'), 'new_phase');
  assert.equal(decisionWords('disk'), 'set a secret disk');
  assert.equal(purposeText('unknown_purpose'), 'unknown_purpose');
});

test('ladders and options', () => {
  assert.equal(ladderName('2p-automa-short', false), '2 players with the automa');
  assert.equal(optionsText({players: 3, four_stacks: true, edition: '1995'}), '3 players · four stacks · 1995 rules');
  assert.equal(optionsText({short_game: true}, 'tournament'), 'Short game');
  assert.equal(moveLimitText({total: 2, own: 1, opposing: 1}), 'Up to 2 in all, 1 of yours, 1 opposing.');
});
