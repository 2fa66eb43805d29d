// View patches (protocol.md, View patches): a JSON merge patch in which an object applied to
// an array patches the elements it names by index.
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {applyViewPatch} from '../js/viewpatch.js';

test('objects merge key by key; null removes a key; other values replace', () => {
  const view = {version: 3, king: 'aragon', decision: {kind: 'disk'}, scoreboards: {a: 'galicia'}};
  const patched = applyViewPatch(view, {version: 4, decision: null, scoreboards: {b: 'sevilla'}});
  assert.deepEqual(patched, {version: 4, king: 'aragon', scoreboards: {a: 'galicia', b: 'sevilla'}});
});

test('an object applied to an array patches the elements it names', () => {
  const view = {players: [{score: 1, hand: [1, 2]}, {score: 2}]};
  applyViewPatch(view, {players: {1: {score: 7}, 0: {hand: {1: 9}}}});
  assert.deepEqual(view.players, [{score: 1, hand: [1, 9]}, {score: 7}]);
});

test('an array in a patch replaces the array', () => {
  assert.deepEqual(applyViewPatch({offered: [1, 2, 3]}, {offered: [4]}), {offered: [4]});
});

test('a scalar or an array patch replaces the whole target', () => {
  assert.equal(applyViewPatch({a: 1}, 5), 5);
  assert.deepEqual(applyViewPatch({a: 1}, [1]), [1]);
  assert.equal(applyViewPatch({a: 1}, null), null);
});

test('a key new to the view is made, objects included', () => {
  assert.deepEqual(applyViewPatch({}, {announced: {type: 'move_king', to: 'granada'}}), {announced: {type: 'move_king', to: 'granada'}});
  assert.deepEqual(applyViewPatch({x: 3}, {x: {y: 1}}), {x: {y: 1}});
});

test('an index the array lacks is a patch meant for another view', () => {
  assert.throws(() => applyViewPatch({players: [{}]}, {players: {1: {score: 1}}}), /no element 1/);
  assert.throws(() => applyViewPatch({players: [{}]}, {players: {x: {}}}), /no element x/);
  assert.throws(() => applyViewPatch({players: [{}]}, {players: {'-1': {}}}), /no element -1/);
});
