// The replay viewer's steps: the view at each version from the first view and the patches,
// and the versions where a round or a scoring starts.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {replayHash, replayOf, replaySteps} from '../js/replay.js';

const frame = (payload) => ({update: {type: 'game.update', payload}});

test('each version\'s view is the one before patched; rounds and scorings are marked', () => {
  const doc = {frames: [
    frame({view: {round: 0, players: [{score: 0}, {score: 0}]}, events: [{type: 'game_started'}]}),
    frame({patch: {round: 1}, events: [{type: 'round_started', round: 1}]}),
    frame({patch: {players: {1: {score: 4}}}, events: [{type: 'general_scoring_started'}, {type: 'area_scored'}]}),
    frame({patch: {round: 2}, events: [{type: 'round_started', round: 2}]}),
  ]};
  const {views, marks} = replaySteps(doc);
  assert.deepEqual(views.map((v) => v.round), [0, 1, 1, 2]);
  assert.deepEqual(views[1].players, [{score: 0}, {score: 0}], 'an earlier view is not changed by a later patch');
  assert.deepEqual(views[2].players, [{score: 0}, {score: 4}]);
  assert.deepEqual(marks, [
    {version: 1, kind: 'round', n: 1}, {version: 2, kind: 'scoring', n: 1}, {version: 3, kind: 'round', n: 2},
  ]);
  assert.equal(replayHash(7), '#/replay/7');
  assert.equal(replayHash(7, 12), '#/replay/7/12');
});

test('a saved file is a replay, or a record that carries one', () => {
  const replay = {format: 'elgrande-replay', table: {name: 'T', seats: [], options: {}}, frames: [frame({view: {options: {}}})]};
  assert.equal(replayOf(replay).table.name, 'T');
  assert.equal(replayOf({format: 'elgrande-record', replay}).table.name, 'T');
  assert.deepEqual(replayOf({...replay, table: undefined}).table, {seats: [], options: {}});
  assert.equal(replayOf({format: 'elgrande-record'}), null);
  assert.equal(replayOf({format: 'elgrande-replay', frames: []}), null);
  assert.equal(replayOf(null), null);
});
