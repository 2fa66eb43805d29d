#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/player.hpp"
#include "elgrande/db/notices.hpp"
#include "elgrande/notices/mail.hpp"
#include "elgrande/notices/push.hpp"
#include "notices/mailer.hpp"
#include "notices/push_client.hpp"
#include "ops/metrics.hpp"

namespace elgrande::server {

class Reach;
class Storage;

struct SenderSettings {
  notices::Mailbox from;     // smtp_from
  std::string public_url;    // links start with it; no trailing slash
  std::string message_host;  // the host of public_url, in each mail's Message-ID
  std::string push_subject;  // VAPID's "sub": mailto: the sender, or public_url
  bool push_over_http = false;  // push endpoints may be http:// (tests only)
  std::chrono::milliseconds turn_after{std::chrono::minutes(10)};
  std::chrono::milliseconds retry_after{std::chrono::minutes(1)};  // then ×5, ×30, ×120, ×360
  int digest_hour = 7;  // UTC
};

// How the sender is woken: a notice may be due now (`ring`), or a transaction that wrote one
// has committed (`committed`, Storage's commit hook). Shared between the sender and that
// hook, which storage keeps until it stops, so that the hook never outlives what it touches.
struct SenderWakeup {
  void ring() {
    {
      std::lock_guard lock(mutex);
      wake = true;
    }
    woken.notify_all();
  }
  void committed() {
    if (armed.exchange(false, std::memory_order_relaxed)) ring();
  }
  std::mutex mutex;
  std::condition_variable woken;
  bool wake = false;
  bool stopping = false;
  std::atomic<bool> armed{false};  // a transaction under way wrote a notice
};

// The keys the server made once and keeps in the database (server_keys).
struct NoticeKeys {
  notices::VapidKey vapid;
  std::vector<std::uint8_t> unsubscribe;  // the HMAC key of one-click unsubscribe links
};

// Delivers the outbox (docs/notifications.md#the-outbox) on a thread of its own, reading
// on a connection of its own and writing through Storage: one notice at a time, each
// removed (or postponed) and committed before the next is sent, so that a restart resends
// at most the one in flight. Never on a table's strand nor the storage writer: a slow or
// unreachable relay only makes the outbox wait.
class NoticeSender {
 public:
  // How long the player has been away from every table: nothing while connected.
  using AwayFor = std::function<std::optional<std::chrono::milliseconds>(PlayerId)>;
  // Whether the player is still entered in the tournament, not yet started: a reminder of
  // its start is dropped otherwise.
  using Entered = std::function<bool(PlayerId, std::int64_t tournament)>;

  NoticeSender(std::string database, Storage& storage, Reach& reach, Metrics& metrics, SenderSettings settings,
               NoticeKeys keys, std::unique_ptr<Mailer> mailer, AwayFor away_for, Entered entered,
               std::shared_ptr<SenderWakeup> wakeup);
  ~NoticeSender();  // stop()
  NoticeSender(const NoticeSender&) = delete;
  NoticeSender& operator=(const NoticeSender&) = delete;

  void start();
  void stop();  // finishes the delivery in flight; idempotent

  // A notice may be due now (from any thread).
  void wake() { wakeup_->ring(); }
  // Called inside a transaction that wrote a notice: wake once it has committed.
  void wake_after_commit() { wakeup_->armed.store(true, std::memory_order_relaxed); }

  const NoticeKeys& keys() const { return keys_; }
  const SenderSettings& settings() const { return settings_; }

  // What became of one notice.
  struct Outcome {
    enum class What { delivered, again, wait, drop } what = What::delivered;
    std::int64_t due_at = 0;        // again, wait
    std::string why;                // again, drop: for the log
    std::vector<std::int64_t> gone_devices;  // push services said 404 or 410
    std::vector<std::int64_t> also_delivered;  // a digest's other rows
  };

 private:
  void run();
  Outcome deliver(const db::OutboxNotice& notice, db::Store& store);
  Outcome deliver_mail(const db::OutboxNotice& notice, db::Store& store);
  Outcome deliver_push(const db::OutboxNotice& notice, db::Store& store);
  Outcome retry(const db::OutboxNotice& notice, std::string why, std::optional<std::chrono::seconds> after = {}) const;
  // Writes the outcome and waits for its commit: false if it could not be saved.
  bool settle(const db::OutboxNotice& notice, const Outcome& outcome);
  std::int64_t now() const;

  const std::string database_;
  Storage& storage_;
  Reach& reach_;
  Metrics& metrics_;
  const SenderSettings settings_;
  const NoticeKeys keys_;
  std::unique_ptr<Mailer> mailer_;
  PushClient push_;
  AwayFor away_for_;
  Entered entered_;

  std::shared_ptr<SenderWakeup> wakeup_;
  std::thread thread_;
};

}  // namespace elgrande::server
