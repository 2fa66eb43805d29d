// The pure side of the decision panel: counts, badges, words while waiting, and the moves of
// a special action planned within the card's limits (docs/protocol-codecs.md, Decisions).
import './english.mjs';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {
  MOVE_KINDS, TARGET_KINDS, addMove, badgesOf, byColour, moveLimitText, netBadges, nonZero, planMove, sum, waitText,
} from '../js/games/elgrande/decisionrules.js';

test('counts: sums, the non-zero ones, per colour', () => {
  assert.equal(sum({galicia: 2, aragon: 3}), 5);
  assert.equal(sum(undefined), 0);
  assert.deepEqual(nonZero({galicia: 0, aragon: 3}), {aragon: 3});
  assert.deepEqual(byColour([{colour: 1, regions: {galicia: 2}}]), {1: {galicia: 2}});
  assert.deepEqual(byColour(undefined), {});
});

test('the map\'s badges for a draft\'s counts', () => {
  assert.deepEqual(badgesOf({galicia: 2, aragon: 0}, '+'), {galicia: '+2'});
  assert.deepEqual(badgesOf(undefined, '−'), {});
});

test('the kinds of special action the panel handles as moves and as targets', () => {
  assert.equal(MOVE_KINDS.has('move_three_any'), true);
  assert.equal(MOVE_KINDS.has('scoreboard'), false);
  assert.deepEqual(TARGET_KINDS.king.command('granada'), {type: 'move_king', to: 'granada'});
  assert.deepEqual(TARGET_KINDS.eviction.command('sevilla'), {type: 'evict', region: 'sevilla'});
  assert.deepEqual(TARGET_KINDS.score_chosen_region.command('castillo'), {type: 'score_area', area: 'castillo'});
});

test('what the others are to do, by phase', () => {
  assert.equal(waitText({phase: 'power_cards'}, ['Ana']), 'Waiting for Ana to play a power card.');
  assert.equal(waitText({phase: 'use_action_card'}, ['Ana', 'Bea']), 'Waiting for Ana, Bea to use an action card.');
  assert.match(waitText({phase: 'use_action_card', card: 0}, ['Ana']), /^Waiting for Ana to use “.+”\.$/);
  assert.match(waitText({phase: 'disk_setting', disk_purpose: 'secret_scoring'}, ['Ana']), /^Waiting for Ana to set a secret disk \(.+\)\.$/);
  assert.equal(waitText({phase: 'disk_setting'}, ['Ana']), 'Waiting for Ana to set a secret disk (disks).');
  assert.equal(waitText({phase: 'game_over'}, ['Ana']), 'Waiting for Ana to decide.');
});

test('a card\'s limits in words', () => {
  assert.equal(moveLimitText({total: 3, own: 0, opposing: 3}), 'Up to 3 in all, none of yours, 3 opposing.');
  assert.equal(moveLimitText({total: 4, own: 2, opposing: 2, single_source: true}), 'Up to 4 in all, 2 of yours, 2 opposing, all out of one region.');
  assert.equal(moveLimitText({all_own: true}), 'Any or all of your own caballeros, all out of one region.');
});

// "Move two of yours and two opposing": me (seat 0) in Galicia and Aragón, seat 1 in Galicia.
const twoAndTwo = {
  moves: {total: 4, own: 2, opposing: 2},
  move_from: [{colour: 0, regions: {galicia: 3, aragon: 1}}, {colour: 1, regions: {galicia: 2}}],
  move_to: ['galicia', 'aragon', 'cataluna'],
};

test('planning moves: my own colour first, from where it stands, to anywhere else offered', () => {
  const form = {};
  const plan = planMove(twoAndTwo, [], form, 0);
  assert.deepEqual(plan.colours, [0, 1]);
  assert.equal(form.colour, 0);
  assert.deepEqual(plan.froms, ['galicia', 'aragon']);
  assert.deepEqual(plan.tos, []);
  assert.equal(plan.maxCount, 0);
  form.from = 'galicia';
  const from = planMove(twoAndTwo, [], form, 0);
  assert.deepEqual(from.tos, ['aragon', 'cataluna']);
  assert.equal(from.maxCount, 2);  // three stand there, but two of mine may move
  assert.equal(form.count, 1);
});

test('planning moves: what is planned counts against the limits and the caballeros left', () => {
  const planned = [];
  addMove(planned, {colour: 0, from: 'galicia', to: 'aragon', count: 1});
  addMove(planned, {colour: 0, from: 'galicia', to: 'aragon', count: 1});
  assert.deepEqual(planned, [{colour: 0, from: 'galicia', to: 'aragon', count: 2}]);
  const form = {colour: 0};
  const plan = planMove(twoAndTwo, planned, form, 0);
  assert.deepEqual(plan.colours, [1]);  // my two are used up
  assert.equal(form.colour, 1);
  assert.equal(plan.moved, 2);
  form.from = 'galicia';
  assert.equal(planMove(twoAndTwo, planned, form, 0).maxCount, 2);
  assert.equal(plan.available('galicia', 0), 1);
});

test('planning moves: a choice no longer possible is dropped', () => {
  const form = {colour: 0, from: 'cataluna', to: 'aragon', count: 5};
  const plan = planMove(twoAndTwo, [], form, 0);
  assert.equal(form.from, undefined);
  assert.equal(form.to, undefined);
  assert.equal(form.count, 0);
  assert.deepEqual(plan.tos, []);
});

test('planning moves: one source region only, once the first move is planned', () => {
  const single = {...twoAndTwo, moves: {total: 4, own: 2, opposing: 2, single_source: true}};
  const planned = [{colour: 1, from: 'galicia', to: 'cataluna', count: 1}];
  const form = {colour: 0};
  assert.deepEqual(planMove(single, planned, form, 0).froms, ['galicia']);
});

test('planning moves: "any or all" starts at all of them', () => {
  const allOwn = {moves: {total: 99, own: 99, opposing: 0, all_own: true, single_source: true}, move_from: [{colour: 0, regions: {sevilla: 4}}], move_to: ['sevilla', 'granada']};
  const form = {colour: 0, from: 'sevilla'};
  const plan = planMove(allOwn, [], form, 0);
  assert.equal(plan.maxCount, 4);
  assert.equal(form.count, 4);
  assert.deepEqual(plan.colours, [0]);
});

test('the planned moves\' net effect on the map', () => {
  assert.deepEqual(netBadges([
    {colour: 0, from: 'galicia', to: 'aragon', count: 2},
    {colour: 1, from: 'aragon', to: 'galicia', count: 2},
    {colour: 1, from: 'aragon', to: 'cataluna', count: 1},
  ]), {aragon: '−1', cataluna: '+1'});
  assert.deepEqual(netBadges([]), {});
});
