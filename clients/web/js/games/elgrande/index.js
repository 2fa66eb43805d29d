// El Grande's client module: all the shell knows of the game (docs/modules.md#the-web-client). The shell
// reaches it only through games/index.js; the files beside this one are the game's own.

import {GameScreen, finishedTable} from './game.js';
import {LADDERS, decisionWords, describeCommand, describeEvent, eventTone, involves, ladderName, ladderOf} from './texts.js';
import {t} from '../../i18n.js';
import {colourOf} from './colours.js';
import {defaultOptions, formOptions, optionsForm, optionsText} from './options.js';
import {replayBoard, replaySeats} from './replay.js';

export const elGrande = {
  // The game's id, as the server will name it, and its name for people.
  id: 'el-grande',
  name: 'El Grande',

  // --- Options: context is 'table' (create form), 'play' (play now) or 'tournament' ---------

  // The fields a fresh form starts with, a new object each call.
  defaultOptions(context) { return defaultOptions(context); },
  // The form's nodes that choose the options, in order; they change the fields of `form` in place.
  optionsForm(form, context) { return optionsForm(form, context); },
  // The options the form's fields stand for, as the request sends them (table.create's options,
  // play.join's wish, tournament.create's settings.game).
  formOptions(form, context) { return formOptions(form, context); },
  // Options in words: "3 players · short game (6 rounds)"; for 'tournament', "Short game".
  optionsText(options, context = 'table') { return optionsText(options, context); },

  // --- Seats ---------------------------------------------------------------------------------

  // A seat's colour at a table of these options: {name, fill, ink, shape, symbol}, and its
  // name in the reader's language as `label`.
  seatColour(seat, options) {
    const colour = colourOf(seat, options);
    return {...colour, label: t(`elgrande.colour.${colour.name}`)};
  },

  // --- Ladders (docs/ratings.md) -------------------------------------------------------------

  // The ladders in groups for the picker, in order: [{title, ladders: [[ladder, label]]}].
  ladderGroups() {
    const group = (title, ladders) => ({title, ladders: ladders.map((l) => [l, ladderName(l, false)])});
    return [
      group(t('elgrande.options.full_game'), LADDERS.filter((l) => !l.endsWith('-short'))),
      group(t('elgrande.options.short_game_rounds'), LADDERS.filter((l) => l.endsWith('-short'))),
    ];
  },
  // The ladder the leaderboard opens on while no ladder has more players than another.
  defaultLadder: '4p-short',
  // A ladder's id in words ("4 players, short game"); an unknown id as it is.
  ladderName(ladder) { return ladderName(ladder); },
  // The ladder a game of these options counts on.
  ladderOf(options) { return ladderOf(options); },

  // --- The event log and turns (docs/protocol-codecs.md) -------------------------------------

  // One event as a sentence; ctx = {names: seat → name, options}.
  eventText(event, ctx) { return describeEvent(event, ctx); },
  // A class for events worth drawing the eye to: 'score', 'round', 'alert' or ''.
  eventTone(event) { return eventTone(event); },
  // Whether the event is about this seat, to mark it in the log.
  eventInvolves(event, seat) { return involves(event, seat); },
  // What a decision of this kind asks, for "your turn" ("play a power card"), or null.
  decisionText(kind) { return decisionWords(kind); },

  // --- Screens -------------------------------------------------------------------------------

  // The screen of a table whose game the store holds (app.store.games): an object with
  // `root` (the node to show), `update()` (after any change of the store) and `destroy()`.
  createScreen(app, tableId) { return new GameScreen(app, tableId); },
  // The final scores of a finished table whose game is no longer sent; `rated` is its
  // table.rated push or undefined. A node.
  finalScreen(table, rated) { return finishedTable(table, rated); },
  // A replay's map (docs/replays.md): {root, update(view, names)}.
  replayBoard() { return replayBoard(); },
  // A replay's seats at a version, with each one's secrets when given: list items.
  replaySeats(view, names, secrets) { return replaySeats(view, names, secrets); },
  // An answer to a decision (a command), in words: the bot's second opinion names moves so.
  describeCommand(command, ctx) { return describeCommand(command, ctx); },
};
