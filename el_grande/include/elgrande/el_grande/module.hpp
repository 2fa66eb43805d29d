#pragma once

#include <memory>

#include "elgrande/engine/commands.hpp"
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
// A game at `state` with what may still be taken back.
std::unique_ptr<games::Game> resume(const Options& options, GameState state, UndoHistory undo);

}  // namespace elgrande::el_grande
