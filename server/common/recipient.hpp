#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "elgrande/protocol/envelope.hpp"

namespace elgrande::server {

// Whoever a message is for: a WebSocket connection today, a connection held by another
// process tomorrow, a recording stand-in in tests. Tables, presence and the lobby listing
// only ever see this, never a socket.
class Recipient {
 public:
  virtual ~Recipient() = default;

  // Queues one message. Callable from any thread; one serialised message may be shared by
  // many recipients, and must not be changed once handed over.
  virtual void deliver(std::shared_ptr<const std::string> message) = 0;
  void deliver(std::string message) { deliver(std::make_shared<const std::string>(std::move(message))); }
  // Queues two messages that leave together where the transport allows (one write for both
  // on a WebSocket): an answer and the update that came of it.
  virtual void deliver(std::shared_ptr<const std::string> first, std::shared_ptr<const std::string> then) {
    deliver(std::move(first));
    deliver(std::move(then));
  }

  // Ends the connection: for a peer that lets its messages pile up, or at shutdown.
  virtual void close() = 0;
  // Ends the connection politely once what is queued for it is sent, with a close code
  // and a reason for the person concerned.
  virtual void end(protocol::CloseCode /*code*/, std::string_view /*reason*/) { close(); }

  // Whether it reads a game update's view as a patch of the view it holds (protocol 2).
  // Set by hello before any table hears of the connection; read on tables' strands.
  bool takes_view_patches() const { return view_patches_.load(std::memory_order_relaxed); }
  void take_view_patches(bool yes) { view_patches_.store(yes, std::memory_order_relaxed); }

 private:
  std::atomic<bool> view_patches_{false};
};

using RecipientPtr = std::shared_ptr<Recipient>;
using WeakRecipient = std::weak_ptr<Recipient>;

}  // namespace elgrande::server
