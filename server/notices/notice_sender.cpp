#include "notices/notice_sender.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <future>
#include <nlohmann/json.hpp>

#include "common/unix_time.hpp"
#include "elgrande/notices/letters.hpp"
#include "elgrande/notices/unsubscribe.hpp"
#include "notices/reach.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {
namespace {

using nlohmann::json;
using What = NoticeSender::Outcome::What;

// A failed delivery waits retry_after times these, one after the other; then it is dropped.
constexpr std::array<int, 5> kBackoff{1, 5, 30, 120, 360};
constexpr auto kIdlePoll = std::chrono::seconds(60);
constexpr std::size_t kBatch = 16;
// A turn notice for a player at the table waits at least this long before it is looked at
// again, even with notice_turn_after_seconds 0: the sender never spins on one.
constexpr std::chrono::milliseconds kConnectedRecheck{1000};

// Mail about the account itself goes to the address in its payload, not the account's own.
bool to_named_address(std::string_view kind) {
  return kind == "verify_email" || kind == "reset_password" || kind == "email_changed";
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The language the recipient's account reads in (docs/notifications.md#languages); English
// for a guest, an account that has not chosen, or mail to an address without a player.
std::string language_of(const db::OutboxNotice& notice, db::Store& store) {
  if (!notice.player) return "en";
  return store.accounts().language(*notice.player).value_or("en");
}

}  // namespace

NoticeSender::NoticeSender(std::string database, Storage& storage, Reach& reach, Metrics& metrics,
                           SenderSettings settings, NoticeKeys keys, std::unique_ptr<Mailer> mailer, AwayFor away_for,
                           Entered entered, std::shared_ptr<SenderWakeup> wakeup)
    : database_(std::move(database)),
      storage_(storage),
      reach_(reach),
      metrics_(metrics),
      settings_(std::move(settings)),
      keys_(std::move(keys)),
      mailer_(std::move(mailer)),
      away_for_(std::move(away_for)),
      entered_(std::move(entered)),
      wakeup_(std::move(wakeup)) {}

NoticeSender::~NoticeSender() { stop(); }

void NoticeSender::start() {
  thread_ = std::thread([this] { run(); });
}

void NoticeSender::stop() {
  {
    std::lock_guard lock(wakeup_->mutex);
    wakeup_->stopping = true;
  }
  wakeup_->woken.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::int64_t NoticeSender::now() const { return unix_milliseconds(); }

void NoticeSender::run() {
  std::unique_ptr<db::Database> database;
  std::unique_ptr<db::Store> store;
  const auto pause = [this](std::chrono::milliseconds most) {
    SenderWakeup& w = *wakeup_;
    std::unique_lock lock(w.mutex);
    w.woken.wait_for(lock, most, [&w] { return w.wake || w.stopping; });
    w.wake = false;
    return !w.stopping;
  };
  while (true) {
    {
      std::lock_guard lock(wakeup_->mutex);
      if (wakeup_->stopping) return;
    }
    try {
      if (!store) {
        database = db::open(database_, db::OpenOptions{.create = false, .read_only = true});
        store = std::make_unique<db::Store>(*database);
      }
      const auto due = store->notices().due(now(), kBatch);
      if (due.empty()) {
        const auto next = store->notices().next_due();
        auto wait = std::chrono::milliseconds(kIdlePoll);
        if (next) wait = std::min(wait, std::chrono::milliseconds(std::max<std::int64_t>(*next - now(), 0)));
        if (!pause(wait)) return;
        continue;
      }
      for (const auto& notice : due) {
        {
          std::lock_guard lock(wakeup_->mutex);
          if (wakeup_->stopping) return;
        }
        // Gone since the batch was read: delivered in a digest, or answered by a move.
        if (!store->notices().notice(notice.id)) continue;
        if (!settle(notice, deliver(notice, *store))) {
          if (!pause(std::chrono::seconds(5))) return;  // storage refuses for now: try again later
          break;
        }
      }
    } catch (const std::exception& error) {
      spdlog::error("notices: the outbox could not be read: {}; trying again in 5 s", error.what());
      store.reset();
      database.reset();
      if (!pause(std::chrono::seconds(5))) return;
    }
  }
}

NoticeSender::Outcome NoticeSender::deliver(const db::OutboxNotice& notice, db::Store& store) {
  // A turn notice waits while its player is at the table, and until they have been away long
  // enough; the daily digest goes at its hour whatever.
  if (notice.kind == "turn" && notice.channel != "digest" && notice.player) {
    const auto away = away_for_(*notice.player);
    // At the table: looked at again later, never sooner than kConnectedRecheck.
    if (!away) return {What::wait, now() + std::max(settings_.turn_after, kConnectedRecheck).count(), {}, {}, {}};
    if (*away < settings_.turn_after) return {What::wait, now() + (settings_.turn_after - *away).count(), {}, {}, {}};
  }
  if (notice.kind == "tournament" && notice.player && entered_) {
    const json payload = json::parse(notice.payload, nullptr, false);
    if (payload.is_object() && payload.value("what", "") == "starts_soon" && payload.contains("tournament") &&
        payload["tournament"].is_number_integer() && !entered_(*notice.player, payload["tournament"].get<std::int64_t>())) {
      return {What::drop, 0, {}, {}, {}};  // withdrawn, or the event was cancelled: nothing to remind of
    }
  }
  if (notice.channel == "push") return deliver_push(notice, store);
  return deliver_mail(notice, store);
}

NoticeSender::Outcome NoticeSender::retry(const db::OutboxNotice& notice, std::string why,
                                          std::optional<std::chrono::seconds> after) const {
  if (static_cast<std::size_t>(notice.attempts) >= kBackoff.size()) {
    return {What::drop, 0, "given up after " + std::to_string(notice.attempts + 1) + " attempts: " + why, {}, {}};
  }
  auto wait = settings_.retry_after * kBackoff[static_cast<std::size_t>(notice.attempts)];
  if (after && *after > wait) wait = std::chrono::duration_cast<std::chrono::milliseconds>(*after);
  return {What::again, now() + wait.count(), std::move(why), {}, {}};
}

NoticeSender::Outcome NoticeSender::deliver_mail(const db::OutboxNotice& notice, db::Store& store) {
  if (!mailer_) return {What::drop, 0, "no SMTP relay is configured", {}, {}};
  const json payload = json::parse(notice.payload, nullptr, false);
  std::optional<std::string> to;
  if (to_named_address(notice.kind)) {
    if (payload.is_object() && payload.contains("to") && payload["to"].is_string()) to = payload["to"].get<std::string>();
  } else if (notice.player) {
    to = reach_.address(*notice.player);
  }
  if (!to) return {What::drop, 0, {}, {}, {}};  // the address was removed meanwhile: nobody to tell
  Outcome delivered;
  const std::string language = language_of(notice, store);
  std::optional<notices::Letter> letter;
  std::string unsubscribe_kind = notice.kind;
  if (notice.channel == "digest" && notice.player) {
    std::vector<notices::Letter> letters;
    for (const auto& row : store.notices().digest_of(*notice.player, now())) {
      if (auto one = notices::letter(row.kind, json::parse(row.payload, nullptr, false), settings_.public_url, language)) {
        letters.push_back(std::move(*one));
      }
      if (row.id != notice.id) delivered.also_delivered.push_back(row.id);
    }
    if (!letters.empty()) letter = notices::digest(letters, settings_.public_url, language);
    unsubscribe_kind = "digest";
  } else {
    letter = notices::letter(notice.kind, payload, settings_.public_url, language);
  }
  if (!letter) return {What::drop, 0, "its payload does not make a letter", {}, {}};

  notices::Mail mail;
  mail.from = settings_.from;
  mail.to = {{}, *to};
  mail.subject = letter->subject;
  mail.text = letter->text;
  mail.html = letter->html;
  mail.message_id = "notice-" + std::to_string(notice.id) + "." + std::to_string(notice.created_at) + "@" +
                    settings_.message_host;
  mail.date = now() / 1000;
  if (notice.player && (notices::unsubscribable(notice.kind) || notice.channel == "digest")) {
    mail.unsubscribe_url = settings_.public_url + "/notices/unsubscribe?token=" +
                           notices::unsubscribe_token(keys_.unsubscribe, *notice.player, unsubscribe_kind);
  }
  std::string message;
  try {
    message = notices::render(mail);
  } catch (const std::invalid_argument& error) {
    return {What::drop, 0, std::string("it cannot be written as a mail: ") + error.what(), {}, {}};
  }
  if (const auto failure = mailer_->send(settings_.from.address, *to, message)) {
    metrics_.notices_failed.fetch_add(1, std::memory_order_relaxed);
    if (failure->permanent) return {What::drop, 0, "the relay refused it: " + failure->reason, {}, {}};
    return retry(notice, "the relay: " + failure->reason);
  }
  metrics_.mails_sent.fetch_add(1, std::memory_order_relaxed);
  return delivered;
}

NoticeSender::Outcome NoticeSender::deliver_push(const db::OutboxNotice& notice, db::Store& store) {
  if (!notice.player) return {What::drop, 0, "a push notice for nobody", {}, {}};
  const auto devices = reach_.devices(*notice.player);
  if (devices.empty()) return {What::drop, 0, {}, {}, {}};
  const auto letter = notices::letter(notice.kind, json::parse(notice.payload, nullptr, false), settings_.public_url,
                                      language_of(notice, store));
  if (!letter) return {What::drop, 0, "its payload does not make a letter", {}, {}};
  const std::string body = json{{"kind", notice.kind},
                                {"title", letter->subject},
                                {"body", first_line(letter->text)},
                                {"url", letter->url},
                                {"tag", "notice-" + std::to_string(notice.id)}}
                               .dump();
  const std::vector<std::uint8_t> plain(body.begin(), body.end());
  Outcome outcome;
  std::optional<std::string> again;
  std::optional<std::chrono::seconds> retry_after;
  const std::int64_t expires = now() / 1000 + 12 * 3600;
  for (const auto& device : devices) {
    const auto p256dh = notices::from_base64url(device.p256dh);
    const auto auth = notices::from_base64url(device.auth);
    if (!p256dh || !auth || notices::why_not_push_keys({*p256dh, *auth})) {
      outcome.gone_devices.push_back(device.id);
      continue;
    }
    const std::string audience = notices::push_audience(device.endpoint);
    const std::vector<std::string> headers{
        "TTL: 86400", "Content-Encoding: aes128gcm", "Content-Type: application/octet-stream",
        std::string("Urgency: ") + (notice.kind == "turn" ? "high" : "normal"),
        "Authorization: " + notices::vapid_authorization(keys_.vapid, audience, settings_.push_subject, expires)};
    const auto answer = push_.post(device.endpoint, headers, notices::encrypt(plain, {*p256dh, *auth}));
    if (answer.status >= 200 && answer.status < 300) {
      metrics_.pushes_sent.fetch_add(1, std::memory_order_relaxed);
    } else if (answer.status == 404 || answer.status == 410) {
      outcome.gone_devices.push_back(device.id);  // the browser unsubscribed, or the subscription expired
    } else {
      metrics_.notices_failed.fetch_add(1, std::memory_order_relaxed);
      if (answer.status == 0 || answer.status == 429 || answer.status >= 500) {
        again = answer.status == 0 ? answer.failure : "HTTP status " + std::to_string(answer.status);
        if (answer.retry_after && (!retry_after || *answer.retry_after > *retry_after)) retry_after = answer.retry_after;
      } else {
        spdlog::warn("notices: a push service refused notice {} for player {} with HTTP status {}", notice.id,
                     *notice.player, answer.status);
      }
    }
  }
  if (again) {
    // Devices that took it already may get it twice: the notification's tag shows it once.
    auto retried = retry(notice, "a push service: " + *again, retry_after);
    retried.gone_devices = std::move(outcome.gone_devices);
    return retried;
  }
  return outcome;
}

bool NoticeSender::settle(const db::OutboxNotice& notice, const Outcome& outcome) {
  if (outcome.what == What::drop && !outcome.why.empty()) {
    metrics_.notices_dropped.fetch_add(1, std::memory_order_relaxed);
    spdlog::warn("notices: notice {} ({} by {}) dropped: {}", notice.id, notice.kind, notice.channel, outcome.why);
  } else if (outcome.what == What::again) {
    spdlog::info("notices: notice {} ({} by {}) not delivered ({}); trying again in {} s", notice.id, notice.kind,
                 notice.channel, outcome.why, (outcome.due_at - now() + 999) / 1000);
  }
  auto saved = std::make_shared<std::promise<bool>>();
  auto future = saved->get_future();
  storage_.write(
      [id = notice.id, attempts = notice.attempts, outcome](db::Store& store) {
        auto& notices = store.notices();
        switch (outcome.what) {
          case What::delivered:
          case What::drop: notices.remove_notice(id); break;
          case What::again: notices.postpone(id, outcome.due_at, attempts + 1); break;
          case What::wait: notices.postpone(id, outcome.due_at, attempts); break;
        }
        for (const std::int64_t other : outcome.also_delivered) notices.remove_notice(other);
        for (const std::int64_t device : outcome.gone_devices) notices.remove_subscription(device);
      },
      [saved](bool committed) { saved->set_value(committed); });
  const bool committed = future.get();
  if (committed) {
    for (const std::int64_t device : outcome.gone_devices) reach_.remove_device(device);
  }
  return committed;
}

}  // namespace elgrande::server
