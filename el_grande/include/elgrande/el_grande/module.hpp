#pragma once

#include <memory>

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/state.hpp"
#include "elgrande/engine/undo.hpp"
#include "elgrande/games/module.hpp"

// El Grande as a game module (docs/modules.md): the engine's rules (engine/), its JSON
// codecs (protocol/) and its bots (ai/) behind games::GameModule.
namespace elgrande::el_grande {

const games::GameModule& module();

// The engine's command inside a move, and a move around one: for tools and tests that
// speak the engine's types.
const Command& command_of(const games::Move& move);
games::MovePtr move_of(Command command);

// The engine's state inside a game of this module, what its seats may still take back, and
// a game at a state: for tools and tests.
const GameState& state_of(const games::Game& game);
const UndoHistory& undo_of(const games::Game& game);
std::unique_ptr<games::Game> game_at(GameState state, UndoHistory undo = {});

}  // namespace elgrande::el_grande
