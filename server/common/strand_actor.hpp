#pragma once

#include <boost/asio/post.hpp>
#include <exception>
#include <memory>
#include <utility>

#include "common/net.hpp"

namespace elgrande::server {

// The serial core shared by the objects that each run on a strand of their own (a table, a
// tournament): their work is posted to the strand, holding them alive until it has run, and
// an exception in it is a bug that stops that one object while the server goes on. `Actor`
// derives from this and from std::enable_shared_from_this<Actor>, and has
// `void stop(std::string_view why)`, which says why and sets broken_ (befriend this class if
// it is private).
template <class Actor, class Executor = Strand>
class StrandActor {
 protected:
  explicit StrandActor(Executor strand) : strand_(std::move(strand)) {}

  // Runs `work(self)` on the strand, guarded; `self`, a std::shared_ptr<Actor>, keeps the
  // actor alive meanwhile.
  template <class Work>
  void post(Work&& work) {
    net::post(strand_, [self = actor().shared_from_this(), work = std::forward<Work>(work)]() mutable {
      self->guarded([&] { work(self); });
    });
  }

  // Runs `work` on the strand (the caller is on it already); a throw stops the actor.
  template <class Work>
  void guarded(Work&& work) noexcept {
    try {
      work();
    } catch (const std::exception& error) {
      actor().stop(error.what());
    }
  }

  Executor strand_;
  bool broken_ = false;  // stopped: refuses everything until a restart

 private:
  Actor& actor() { return static_cast<Actor&>(*this); }
};

}  // namespace elgrande::server
