#include "notices_start.hpp"

#include <spdlog/spdlog.h>

#include <openssl/rand.h>

#include <cstring>
#include <future>

#include "common/unix_time.hpp"
#include "presence/presence.hpp"
#include "storage/storage.hpp"
#include "tournaments/tournament.hpp"
#include "tournaments/tournaments.hpp"

namespace elgrande::server {
namespace {

// "Name <address>" or a bare address.
notices::Mailbox sender_of(const std::string& from) {
  const std::size_t open = from.rfind('<');
  if (open == std::string::npos || from.back() != '>') return {{}, from};
  std::string name = from.substr(0, open);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
  return {name, from.substr(open + 1, from.size() - open - 2)};
}

std::string host_of(const std::string& url) {
  std::string rest = url.substr(url.find("://") + 3);
  rest = rest.substr(0, rest.find('/'));
  return rest.substr(0, rest.rfind(':') == std::string::npos || rest.back() == ']' ? rest.size() : rest.rfind(':'));
}

std::vector<std::byte> as_bytes(const std::vector<std::uint8_t>& bytes) {
  std::vector<std::byte> out(bytes.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

std::vector<std::uint8_t> as_octets(const std::vector<std::byte>& bytes) {
  std::vector<std::uint8_t> out(bytes.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// From the event's published detail, which any thread may read.
bool still_entered(const Tournaments& tournaments, PlayerId player, std::int64_t id) {
  const auto tournament = tournaments.find(id);
  if (!tournament) return false;
  const auto detail = tournament->detail();
  if (!detail || detail->value("status", "") != "registering") return false;
  for (const auto& entrant : detail->at("entrants")) {
    if (entrant["player"]["id"] == player) return entrant["status"] == "registered";
  }
  return false;
}

SmtpSettings smtp_of(const Config& config) {
  SmtpSettings smtp;
  smtp.host = config.smtp_host;
  smtp.port = config.smtp_port;
  smtp.security = config.smtp_security == "tls"    ? SmtpSettings::Security::tls
                  : config.smtp_security == "none" ? SmtpSettings::Security::none
                                                   : SmtpSettings::Security::starttls;
  smtp.user = config.smtp_user;
  smtp.password = config.smtp_password;
  smtp.ca_file = config.smtp_ca_file;
  return smtp;
}

}  // namespace

Notices start_notices(const Config& config, Storage& storage, Metrics& metrics, Presence& presence, Bus& bus,
                      const Tournaments& tournaments) {
  const bool mail = !config.smtp_host.empty();
  const notices::Mailbox from = sender_of(config.smtp_from);
  if (mail) {
    if (config.public_url.empty()) throw ConfigError("smtp_host is set: set public_url too, for the links in mails");
    if (const auto why_not = notices::why_not_an_address(from.address)) {
      throw ConfigError("smtp_from: \"" + config.smtp_from + "\": " + *why_not +
                        " (give \"Name <address>\" or an address)");
    }
  }

  // The keys are made once, at the first start, and kept: subscriptions and links outlive restarts.
  struct Stored {
    std::vector<std::byte> vapid;
    std::vector<std::byte> unsubscribe;
    std::vector<db::EmailRecord> emails;
    std::vector<db::EmailToken> pending;
    std::vector<db::PushSubscriptionRecord> devices;
    std::vector<std::pair<std::int64_t, std::string>> preferences;
    std::int64_t waiting = 0;
  };
  auto stored = std::make_shared<Stored>();
  const notices::VapidKey fresh = notices::make_vapid_key();
  std::vector<std::uint8_t> fresh_secret(32);
  RAND_bytes(fresh_secret.data(), static_cast<int>(fresh_secret.size()));
  // Hooked before the first write of notices: the hook is set while no commit runs.
  auto wakeup = std::make_shared<SenderWakeup>();
  storage.on_commit([wakeup] { wakeup->committed(); });
  std::promise<bool> read;
  storage.write(
      [&](db::Store& store) {
        auto& notices = store.notices();
        stored->vapid = notices.keep_server_key("vapid_private_key", as_bytes(fresh.private_key));
        stored->unsubscribe = notices.keep_server_key("unsubscribe_key", as_bytes(fresh_secret));
        stored->emails = notices.emails();
        stored->pending = notices.pending_verifications(unix_milliseconds());
        stored->devices = notices.subscriptions();
        stored->preferences = notices.preferences();
        stored->waiting = notices.waiting();
      },
      [&read](bool committed) { read.set_value(committed); });
  if (!read.get_future().get()) throw std::runtime_error("the notices' keys could not be saved");
  const auto vapid = notices::vapid_key_from_private(as_octets(stored->vapid));
  if (!vapid) throw std::runtime_error("the stored VAPID key is not a P-256 private key");

  Notices notices;
  notices.mail = mail;
  notices.reach = std::make_unique<Reach>();
  notices.reach->restore(stored->emails, stored->pending, stored->devices, stored->preferences);
  notices.throttle = std::make_unique<MailThrottle>();
  SenderSettings settings;
  settings.from = from;
  settings.public_url = config.public_url;
  settings.message_host = config.public_url.empty() ? "localhost" : host_of(config.public_url);
  settings.push_subject = mail ? "mailto:" + from.address
                               : (config.public_url.starts_with("https://") ? config.public_url : "mailto:postmaster@localhost");
  settings.push_over_http = config.push_over_http;
  settings.turn_after = std::chrono::seconds(config.notice_turn_after_seconds);
  settings.retry_after = std::chrono::seconds(config.notice_retry_seconds);
  settings.digest_hour = static_cast<int>(config.digest_hour);
  notices.sender = std::make_unique<NoticeSender>(
      config.database_location(), storage, *notices.reach, metrics, settings,
      NoticeKeys{*vapid, as_octets(stored->unsubscribe)}, mail ? std::make_unique<Mailer>(smtp_of(config)) : nullptr,
      [&presence](PlayerId player) { return presence.away_for(player); },
      [&tournaments](PlayerId player, std::int64_t id) { return still_entered(tournaments, player, id); }, wakeup);
  notices.listener = std::make_unique<NoticeListener>(*notices.reach, *notices.sender, mail, settings.turn_after,
                                                      settings.digest_hour,
                                                      std::chrono::minutes(config.tournament_reminder_minutes));
  notices.listener->listen(bus);
  notices.sender->start();
  if (mail) {
    spdlog::info("notices: mail through {}:{} ({}), {} waiting in the outbox", config.smtp_host, config.smtp_port,
                 config.smtp_security, stored->waiting);
  } else {
    spdlog::info("notices: no smtp_host is set, so no mail is sent (Web Push still is); {} waiting in the outbox",
                 stored->waiting);
  }
  return notices;
}

}  // namespace elgrande::server
