#pragma once

// Notices at start (docs/notifications.md): the keys the server makes once, who can be
// reached how, the sender and the listener that fills its outbox. For main.cpp.

#include <memory>

#include "notices/notice_listener.hpp"
#include "notices/notice_requests.hpp"
#include "notices/notice_sender.hpp"
#include "notices/reach.hpp"
#include "ops/config.hpp"

namespace elgrande::server {

class Bus;
class Presence;
class Storage;
class Tournaments;

struct Notices {
  std::unique_ptr<Reach> reach;
  std::unique_ptr<NoticeSender> sender;
  std::unique_ptr<NoticeListener> listener;
  std::unique_ptr<MailThrottle> throttle;
  bool mail = false;  // a relay is configured

  void stop() {
    if (sender) sender->stop();
  }
};

// Throws ConfigError for settings that do not go together (a relay without smtp_from or
// public_url). Subscribes the listener to `bus` and hooks the sender to `storage`'s commits;
// the sender runs from here on.
Notices start_notices(const Config& config, Storage& storage, Metrics& metrics, Presence& presence, Bus& bus,
                      const Tournaments& tournaments);

}  // namespace elgrande::server
