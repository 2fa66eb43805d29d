// The client's words for times, numbers and names: turn limits and timeouts, countdowns,
// ordinals, ladders and queues, seats, refusals, tournaments.
import './english.mjs';
import {useLanguage} from '../js/i18n.js';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {countdownText, durationText, limitText, policyText, spanText, timeLeft, turnChoices, waitText} from '../js/time.js';
import {areaName, AreaName, describeEvent, eventTone, involves, ladderName, ladderOf} from '../js/games/elgrande/texts.js';
import {botLevelName, botLevels, formerSeat, playerName, mySeatAt, seatNames, seatNote} from '../js/seats.js';
import {clockText, ordinal, queueName, tableName} from '../js/words.js';
import {chatEntryText, removedText} from '../js/log.js';
import {changeText, changeOf} from '../js/ratings.js';
import {errorText, isStale, isTemporary, refusalText} from '../js/connection.js';
import {nameBytes} from '../js/identity.js';
import {
  entryText, formatsText, numberText, playersText, roundNoticeText, roundTimeChoices, seatOrder, stagesText, statusText, tieBreakText,
} from '../js/tournamentwords.js';
import {bot, player, seated, table} from './fakes.mjs';

test('durations: the two largest units, stopping at the first gap', () => {
  assert.equal(durationText(0), '0 s');
  assert.equal(durationText(30), '30 s');
  assert.equal(durationText(90), '1 min 30 s');
  assert.equal(durationText(3600), '1 h');
  assert.equal(durationText(86400), '1 day');
  assert.equal(durationText(93600), '1 day 2 h');
  assert.equal(durationText(2 * 86400 + 300), '2 days');
  assert.equal(durationText(-5), '0 s');
});

test('a table\'s turn limit and what a timeout costs', () => {
  assert.equal(limitText({turn_seconds: 86400}), '1 day per decision');
  assert.equal(limitText({turn_seconds: 0}), 'No time limit');
  assert.equal(limitText(null), 'No time limit');
  assert.equal(policyText({turn_seconds: 0}), null);
  assert.equal(policyText({turn_seconds: 60, on_timeout: 'bot_answers'}), 'a bot answers that decision and the player keeps the seat');
  assert.equal(policyText({turn_seconds: 60, on_timeout: 'bot_answers'}, true), 'a bot answers on timeout');
  assert.equal(policyText({turn_seconds: 60, on_timeout: 'replace_seat', replace_after: 1}, true), 'a bot takes the seat after 1 timeout');
  assert.equal(policyText({turn_seconds: 60, on_timeout: 'replace_seat'}), 'a bot answers, and after 3 timeouts in a row takes the seat for good');
});

test('countdowns: time left in words, and time up', () => {
  const now = 1_000_000;
  assert.equal(timeLeft(now + 12_000, now), '12 s');
  assert.equal(timeLeft(now + 252_000, now), '4 min 12 s');
  assert.equal(timeLeft(now + 2 * 3600_000 + 60_000, now), '2 h 1 min');
  assert.equal(timeLeft(now + 100_800_000, now), '1 d 4 h');
  assert.equal(timeLeft(now - 1, now), null);
  assert.equal(countdownText(Date.now() - 1000), 'Time is up: a bot answers');
  assert.equal(countdownText(Date.now() - 1000, 'brief'), 'time is up');
  assert.match(countdownText(Date.now() + 65_000, 'brief'), /^1 min \d+ s left$/);
});

test('spans in whole units, and the turn limits offered', () => {
  assert.equal(spanText(30), '30 seconds');
  assert.equal(spanText(60), '1 minute');
  assert.equal(spanText(7200), '2 hours');
  assert.equal(spanText(259200), '3 days');
  assert.equal(spanText(1209600), '2 weeks');
  assert.deepEqual(turnChoices().map(([, label]) => label),
    ['No time limit', '30 seconds', '1 minute', '5 minutes', '1 hour', '1 day', '3 days', 'Custom (seconds)…']);
  assert.equal(roundTimeChoices().at(-1)[1], '4 weeks');
});

test('how long to wait: seconds, or minutes with the time they end', () => {
  assert.equal(waitText(1), '1 second');
  assert.equal(waitText(40_000), '40 seconds');
  assert.match(waitText(600_000, 0), /^10 minutes \(at .+\)$/);
});

test('ordinals', () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal),
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th']);
});

test('ladders and play-now queues in words', () => {
  assert.equal(ladderName('4p-short'), '4 players, short game');
  assert.equal(ladderName('2p-automa'), '2 players with the automa');
  assert.equal(ladderName('2p-automa-short'), '2 players with the automa, short game');
  assert.equal(ladderName('9p'), '9p');
  assert.equal(ladderOf({players: 2, automa: true, short_game: true}), '2p-automa-short');
  assert.equal(ladderOf({players: 3, four_stacks: true}), '3p');
  assert.equal(queueName('4p-short/live'), '4 players, short game, live clock');
  assert.equal(queueName('3p'), '3 players');
});

test('areas by name', () => {
  assert.equal(areaName('castilla_nueva'), 'Castilla la Nueva');
  assert.equal(areaName('castillo'), 'the castillo');
  assert.equal(AreaName('castillo'), 'The castillo');
  assert.equal(areaName('atlantis'), 'atlantis');
});

test('seats: names for sentences, mine, and one a bot took from me', () => {
  const t = table(1, {seats: seated(player(7, 'Ana'), bot(), {kind: 'empty'}, {kind: 'bot', player: {id: 9, name: 'Cas'}})});
  assert.deepEqual(seatNames(t, null), ['Ana', 'Bot 2', 'Seat 3', 'Cas']);
  assert.deepEqual(seatNames(t, 0), ['Ana (you)', 'Bot 2', 'Seat 3', 'Cas']);
  assert.deepEqual(seatNames(null, 0), []);
  assert.equal(mySeatAt(t, {id: 7}), 0);
  assert.equal(mySeatAt(t, {id: 9}), 3);
  assert.equal(mySeatAt(t, {id: 1}), null);
  assert.equal(mySeatAt(null, {id: 7}), null);
  assert.equal(formerSeat(t, {id: 9}).seat, 3);
  assert.equal(formerSeat(t, {id: 7}), null);
});

test('seats: what became of one, and how a bot plays', () => {
  assert.equal(seatNote({resigned: true}).text, 'resigned');
  assert.equal(seatNote({replaced: true, timeouts: 1}).text, 'replaced by a bot after 1 timeout');
  assert.equal(seatNote({replaced: true}, {replace_after: 3}).text, 'replaced by a bot after 3 timeouts');
  assert.equal(seatNote({timeouts: 2}).text, 'missed 2 turns');
  assert.equal(seatNote({timeouts: 0}), null);
  assert.deepEqual(botLevels().map(([, name]) => name), ['Easy', 'Medium', 'Strong', 'Random moves']);
  assert.equal(botLevelName('strong'), 'strong');
  assert.equal(botLevelName(undefined), 'random moves');
  assert.equal(clockText('live'), 'Live: 2 minutes per decision');
});

test('chat lines in the log, and one a moderator removed', () => {
  assert.equal(chatEntryText({from: {name: 'Bea'}, said: 'hola'}), 'Bea: “hola”');
  assert.equal(chatEntryText({from: {name: 'Bea'}, removed: true}), 'Bea: removed by a moderator');
  assert.equal(removedText(), 'removed by a moderator');
});

test('events in sentences, their tone, and whether they concern a seat', () => {
  const ctx = {names: ['Ana', 'Bea'], options: {players: 2}};
  assert.equal(describeEvent({type: 'power_card_played', seat: 0, value: 13}, ctx), 'Ana played power card 13.');
  assert.equal(describeEvent({type: 'caballeros_taken', seat: 1, from_province: 2, from_regions: {}}, ctx),
    'Bea took 2 caballeros into the court (2 from the province).');
  assert.equal(describeEvent({type: 'caballeros_taken', seat: 1, from_province: 0}, ctx), 'Bea took no caballeros into the court.');
  assert.equal(eventTone({type: 'area_scored'}), 'score');
  assert.equal(eventTone({type: 'king_moved'}), 'alert');
  assert.equal(eventTone({type: 'power_card_played'}), '');
  assert.equal(involves({type: 'power_card_played', seat: 1}, 1), true);
  assert.equal(involves({type: 'area_scored', points: [0, 4]}, 1), true);
  assert.equal(involves({type: 'area_scored', points: [0, 4]}, 0), false);
  assert.equal(involves({type: 'power_card_played', seat: 1}, undefined), false);
});

test('rating changes: before → after with a signed difference', () => {
  assert.equal(changeText(1000, 1062), '1000 → 1062 (+62)');
  assert.equal(changeText(1000, 990), '1000 → 990 (−10)');
  assert.equal(changeText(1000, 1000), '1000 → 1000 (±0)');
  const t = table(1, {seats: seated(player(7, 'Ana'), bot())});
  const rated = {changes: [{player: 7, before: 1000, after: 1010}]};
  assert.deepEqual(changeOf(rated, t, 0), {player: 7, before: 1000, after: 1010});
  assert.equal(changeOf(rated, t, 1), null);
});

test('refusals in words; a temporary problem and a stale answer are told apart', () => {
  const err = (code, message) => Object.assign(new Error(message), {code});
  // The server's message is English for programs: the words come from the code.
  assert.equal(refusalText(err('forbidden', 'not yours')), 'The server refused: You may not do that here.');
  assert.equal(refusalText(err('seat_taken', 'x'), 'Could not join'), 'Could not join: That seat is taken.');
  assert.equal(refusalText(err('unavailable', 'disk full')), 'The server cannot save moves right now; try again in a moment.');
  assert.equal(refusalText(Object.assign(err('disconnected', 'x'), {reason: 'not_connected'})), 'Not connected to the server.');
  assert.equal(refusalText(Object.assign(err('illegal_command', 'x'), {reason: 'wrong_command'})),
    'The server refused: That move does not answer the decision you owe.');
  assert.equal(errorText(Object.assign(err('rate_limited', 'x'), {detail: 'too_fast', max: 5})), 'You are chatting too fast: at most 5 lines in 10 seconds.');
  assert.equal(errorText(Object.assign(err('limit_reached', 'x'), {detail: 'open_tables_per_player', max: 3})),
    'You host 3 tables that have not finished: finish one first.');
  assert.equal(refusalText(err('no_such_code', 'x')), 'The server refused: The server refused the request (no_such_code).');
  assert.match(refusalText(Object.assign(err('banned', 'x'), {until: Date.UTC(2026, 11, 1, 12), moderatorReason: 'spam'})),
    /^The server refused: A moderator banned this player until Dec 1, 2026 .*: spam$/);
  assert.equal(isTemporary(err('unavailable')), true);
  assert.equal(isTemporary(null), false);
  assert.equal(isStale(err('stale_version')), true);
});

test('names are counted in bytes of UTF-8, as the server counts them', () => {
  assert.equal(nameBytes('Ana'), 3);
  assert.equal(nameBytes('Íñigo'), 7);
  assert.equal(nameBytes('🂡'), 4);
});

test('tournaments in words: numbers, formats, players, stages', () => {
  assert.equal(numberText(6), '6');
  assert.equal(numberText(4.5), '4.5');
  assert.equal(numberText(4 / 3), '1.33');
  assert.equal(formatsText(['swiss', 'elimination']), 'Swiss → Elimination');
  assert.equal(playersText({players: 1}), '1 player');
  assert.equal(statusText('registering'), 'Registration open');
  assert.equal(statusText('unheard_of'), 'unheard_of');
  assert.equal(tieBreakText('percent_of_winner'), '% of the winner’s score');
  assert.equal(playersText({players: 7, max_players: 20}), '7 of 20 players');
  assert.equal(stagesText([
    {format: 'swiss', rounds: 3, table_sizes: {minimum: 4, preferred: 5}},
    {format: 'elimination', advance_per_table: 1, table_sizes: {minimum: 5, preferred: 5}, qualifiers: 10},
  ]), 'Swiss, 3 rounds at tables of 4–5; then elimination, the top 1 of each table advancing at tables of 5, for the top 10');
  assert.equal(stagesText([{format: 'round_robin', pools: 2, meetings: 2, table_sizes: {minimum: 4, preferred: 4}}]),
    'Round robin in 2 pools, every pair meeting 2 times at tables of 4');
});

test('tournaments in words: an entrant\'s state, to them and to others', () => {
  assert.equal(entryText({status: 'registered'}), 'registered');
  assert.equal(entryText({status: 'registered', checked_in_at: 5}), 'checked in');
  assert.equal(entryText({status: 'playing'}, true), 'You are playing in this event.');
  assert.equal(entryText({status: 'withdrawn', reason: 'withdrew'}), 'withdrew');
  // The codes of why an entry ended, with the director's own words; the English reason is for logs.
  assert.equal(entryText({status: 'withdrawn', why: 'timeouts', round: 2, reason: 'x'}), 'replaced by a bot after timeouts in round 2');
  assert.equal(entryText({status: 'withdrawn', why: 'no_check_in', reason: 'x'}, true), 'You did not check in: you play no more games here.');
  assert.equal(entryText({status: 'removed', why: 'removed', director_reason: 'registered twice', reason: 'x'}), 'removed by the director: registered twice');
  assert.equal(entryText({status: 'removed', why: 'unregistered', reason: 'x'}), 'unregistered');
  assert.equal(entryText({status: 'withdrawn', reason: 'did not check in'}, true), 'You play no more games here (did not check in): your results stay.');
  assert.equal(entryText({status: 'disqualified', reason: 'cheating'}), 'disqualified: cheating');
  assert.equal(entryText({status: 'disqualified', reason: 'cheating'}, true), 'You were disqualified: cheating.');
  assert.equal(entryText({status: 'withdrawn', reason: 'withdrew'}, true), 'You withdrew: your results stay.');
});

test('tournaments in words: a board best placed first, a round\'s notice', () => {
  const board = {seats: [{name: 'A'}, {name: 'B'}, {name: 'C'}], result: {places: [3, 1, 2]}};
  assert.deepEqual(seatOrder(board).map((s) => s.seat), [1, 2, 0]);
  assert.deepEqual(seatOrder({seats: [{}, {}]}).map((s) => s.seat), [0, 1]);
  assert.deepEqual(roundNoticeText({tournament: 2, round: 3, table: 40}, 'Spring Cup'),
    {text: 'Spring Cup, round 3: your table is ready.', href: '#/table/40'});
  assert.deepEqual(roundNoticeText({tournament: 2, round: 1, bye: true}, null), {text: 'Tournament round 1: you have a bye this round.'});
  assert.deepEqual(roundNoticeText({tournament: 2, round: 2, bye: true}, 'Spring Cup'), {text: 'Spring Cup, round 2: you have a bye this round.'});
  assert.deepEqual(roundNoticeText({tournament: 2, round: 4, table: 41}, null), {text: 'Tournament round 4: your table is ready.', href: '#/table/41'});
});

test('tables the server named: said in the reader\'s words; a name someone chose, as typed', () => {
  assert.equal(tableName({id: 7, name: 'Table 7'}), 'Table 7');
  assert.equal(tableName({id: 7, name: 'Play now · 4p-short/live'}), `Play now · ${queueName('4p-short/live')}`);
  assert.equal(tableName({id: 9, name: 'Autumn Cup · R2 B3'}), 'Autumn Cup · round 2, board 3');
  assert.equal(tableName({id: 7, name: 'Table 8'}), 'Table 8', 'another table\'s number is a chosen name');
  assert.equal(tableName({id: 7, name: 'Friday night'}), 'Friday night');
});

test('players the server named: a guest who gave no name, a deleted account; chosen names as typed', async () => {
  assert.equal(playerName({id: 12, name: 'Guest 12'}), 'Guest 12');
  assert.equal(playerName({id: 12, name: 'deleted player'}), 'deleted player');
  assert.equal(playerName({id: 12, name: 'Ana'}), 'Ana');
  assert.deepEqual(seatNames({seats: [{seat: 0, kind: 'human', player: {id: 3, name: 'deleted player'}}]}, null), ['deleted player']);
  await useLanguage('de');
  try {
    assert.equal(playerName({id: 12, name: 'Guest 12'}), 'Gast 12');
    assert.equal(tableName({id: 7, name: 'Table 7'}), 'Tisch 7');
    assert.equal(playerName({id: 12, name: 'Ana'}), 'Ana');
  } finally {
    await useLanguage('en');
  }
});
